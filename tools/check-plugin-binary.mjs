// Checks a plugin binary built for another platform as far as this machine can without running it
// (tools/package-plugin.sh runs it after each build; test/release reads its report):
//
//   node tools/check-plugin-binary.mjs PLATFORM BINARY BLOB     # e.g. darwin-arm64 .../pulumi-resource-assetdelivery sea.blob
//
// - the executable format and architecture the platform needs (ELF, Mach-O or PE; x86-64 or arm64);
// - the SEA blob: embedded byte for byte (for Mach-O, as the NODE_SEA segment's __NODE_SEA_BLOB
//   section, where Node looks for it), and Node's sentinel fuse flipped, without which Node ignores it;
// - for Mach-O, an ad-hoc code signature that macOS would accept: the last thing in __LINKEDIT, a
//   CodeDirectory flagged ad hoc with a SHA-256 hash of every 4 KiB page up to the signature, each
//   hash recomputed here. Apple Silicon refuses to start an unsigned binary; this is the check of
//   tools/macho-adhoc-sign's work that does not share its code.
// Prints one line per check; exits 1 at the first that fails.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const PLATFORMS = {
  "linux-amd64": { format: "ELF", machine: 0x3e },
  "linux-arm64": { format: "ELF", machine: 0xb7 },
  "darwin-amd64": { format: "Mach-O", machine: 0x01000007 },
  "darwin-arm64": { format: "Mach-O", machine: 0x0100000c },
  "windows-amd64": { format: "PE", machine: 0x8664 },
};

const [platform, binaryPath, blobPath] = process.argv.slice(2);
const want = PLATFORMS[platform];
if (!want || !binaryPath || !blobPath) {
  console.error(`usage: node tools/check-plugin-binary.mjs ${Object.keys(PLATFORMS).join("|")} BINARY BLOB`);
  process.exit(2);
}
const file = readFileSync(binaryPath);
const blob = readFileSync(blobPath);

function check(ok, what) {
  if (!ok) {
    console.error(`[check-plugin-binary] ${platform}: FAILED: ${what}`);
    process.exit(1);
  }
  console.log(`[check-plugin-binary] ${platform}: ${what}`);
}

function format() {
  if (file.readUInt32BE(0) === 0x7f454c46) return { format: "ELF", machine: file[4] === 2 ? file.readUInt16LE(18) : -1 };
  if (file.readUInt32LE(0) === 0xfeedfacf) return { format: "Mach-O", machine: file.readInt32LE(4) };
  if (file.toString("latin1", 0, 2) === "MZ") {
    const pe = file.readUInt32LE(0x3c);
    if (file.toString("latin1", pe, pe + 4) === "PE\0\0" && file.readUInt16LE(pe + 24) === 0x20b) {
      return { format: "PE", machine: file.readUInt16LE(pe + 4) };
    }
  }
  return { format: "unknown", machine: -1 };
}

/** Mach-O load commands: segments with their sections, and LC_CODE_SIGNATURE. */
function machoCommands() {
  const segments = [];
  let signature;
  let at = 32;
  for (let i = 0; i < file.readUInt32LE(16); i++) {
    const cmd = file.readUInt32LE(at);
    if (cmd === 0x19) {
      const name = (o) => file.toString("latin1", o, o + 16).replace(/\0+$/, "");
      const sections = [];
      for (let s = 0; s < file.readUInt32LE(at + 64); s++) {
        const o = at + 72 + s * 80;
        sections.push({ name: name(o), size: Number(file.readBigUInt64LE(o + 40)), offset: file.readUInt32LE(o + 48) });
      }
      segments.push({
        name: name(at + 8),
        fileoff: Number(file.readBigUInt64LE(at + 40)),
        filesize: Number(file.readBigUInt64LE(at + 48)),
        sections,
      });
    } else if (cmd === 0x1d) {
      signature = { dataoff: file.readUInt32LE(at + 8), datasize: file.readUInt32LE(at + 12) };
    }
    at += file.readUInt32LE(at + 4);
  }
  return { segments, signature };
}

function checkAdHocSignature({ segments, signature }) {
  check(signature !== undefined, "has an LC_CODE_SIGNATURE load command");
  const linkedit = segments.find((s) => s.name === "__LINKEDIT");
  check(
    linkedit && signature.dataoff + signature.datasize === file.length && linkedit.fileoff + linkedit.filesize === file.length,
    "the signature ends __LINKEDIT and the file",
  );
  const superBlob = signature.dataoff;
  check(file.readUInt32BE(superBlob) === 0xfade0cc0, "an embedded signature SuperBlob");
  const count = file.readUInt32BE(superBlob + 8);
  let codeDirectory;
  for (let i = 0; i < count; i++) {
    if (file.readUInt32BE(superBlob + 12 + i * 8) === 0) codeDirectory = superBlob + file.readUInt32BE(superBlob + 16 + i * 8);
  }
  check(codeDirectory !== undefined && file.readUInt32BE(codeDirectory) === 0xfade0c02, "a CodeDirectory in slot 0");
  const flags = file.readUInt32BE(codeDirectory + 12);
  const hashOffset = file.readUInt32BE(codeDirectory + 16);
  const slots = file.readUInt32BE(codeDirectory + 28);
  const codeLimit = file.readUInt32BE(codeDirectory + 32);
  const [hashSize, hashType, pageShift] = [file[codeDirectory + 36], file[codeDirectory + 37], file[codeDirectory + 39]];
  check((flags & 0x2) !== 0, "the CodeDirectory is flagged ad hoc (CS_ADHOC)");
  check(hashType === 2 && hashSize === 32 && pageShift === 12, "SHA-256 hashes of 4 KiB pages");
  check(codeLimit === signature.dataoff, "the hashes cover the whole file up to the signature");
  const page = 1 << pageShift;
  check(slots === Math.ceil(codeLimit / page), `one hash per page (${slots})`);
  for (let i = 0; i < slots; i++) {
    const actual = createHash("sha256")
      .update(file.subarray(i * page, Math.min((i + 1) * page, codeLimit)))
      .digest();
    const recorded = file.subarray(codeDirectory + hashOffset + i * 32, codeDirectory + hashOffset + (i + 1) * 32);
    if (!actual.equals(recorded)) check(false, `page ${i} of ${slots} matches its hash`);
  }
  check(true, `all ${slots} page hashes match the file`);
}

const found = format();
check(found.format === want.format, `format ${found.format} (want ${want.format})`);
check(found.machine === want.machine, `architecture 0x${found.machine.toString(16)} (want 0x${want.machine.toString(16)})`);
check(file.includes(`${FUSE}:1`) && !file.includes(`${FUSE}:0`), "Node's SEA fuse is flipped");
const at = file.indexOf(blob);
check(at >= 0, `the SEA blob (${blob.length} bytes) is embedded whole`);
if (want.format === "Mach-O") {
  const commands = machoCommands();
  const section = commands.segments.find((s) => s.name === "NODE_SEA")?.sections.find((s) => s.name === "__NODE_SEA_BLOB");
  check(section !== undefined && section.offset === at && section.size === blob.length, "the blob is the NODE_SEA,__NODE_SEA_BLOB section");
  checkAdHocSignature(commands);
}
