#!/usr/bin/env node
// The installed `asset-delivery` command. Kept in git with its executable bit, so npm's bin link
// works whether or not `dist/` was built before `npm install` (tsc does not set the bit).
require("../dist/main.js").run();
