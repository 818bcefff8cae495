#!/usr/bin/env node
// The installed `asset-delivery` command. Kept in git with its executable bit, so npm's bin link
// works whether or not `dist/` was built before `npm install` (tsc does not set the bit).
// Plain CommonJS, checked line by line in order: the Node.js check runs before dist/main.js, and so
// before any command can load better-sqlite3 (which dies with a segmentation fault under Node 20).
require("@asset-delivery/sdk/node-version").exitUnlessSupportedNode("asset-delivery");
require("../dist/main.js").run();
