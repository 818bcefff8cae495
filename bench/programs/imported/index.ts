// The Sources of bench/scale.ts: `asset-delivery import --format typescript --out sources.ts`
// writes them into this program's work folder before the first `pulumi up`.
import "./sources";
