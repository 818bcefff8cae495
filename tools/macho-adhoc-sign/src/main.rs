// Ad-hoc code signature for a 64-bit Mach-O executable, on any OS (as `codesign --sign -` does on
// macOS): `macho-adhoc-sign IN OUT`.
//
// The signature itself (a CodeDirectory of SHA-256 page hashes, flagged ad hoc) is written by the
// crate apple_codesign_adhoc (Deno's, from denoland/sui), which re-signs a binary that already has
// an LC_CODE_SIGNATURE load command. postject's injection of the SEA blob removes Node's own
// signature and that command with it, so when the command is missing this first adds one: 16 bytes
// in the header's free space after the load commands, pointing at the 16-byte-aligned end of
// __LINKEDIT (the last segment), where the crate then writes the signature and grows __LINKEDIT.
use std::process::exit;

const MH_MAGIC_64: u32 = 0xfeedfacf;
const LC_SEGMENT_64: u32 = 0x19;
const LC_CODE_SIGNATURE: u32 = 0x1d;

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}
fn u64_at(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().unwrap())
}
fn put_u32(data: &mut [u8], at: usize, value: u32) {
    data[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Adds an empty LC_CODE_SIGNATURE at the end of the file when there is none.
fn reserve_signature_command(data: &mut Vec<u8>) -> Result<(), String> {
    if data.len() < 32 || u32_at(data, 0) != MH_MAGIC_64 {
        return Err("not a 64-bit little-endian Mach-O file".into());
    }
    let ncmds = u32_at(data, 16) as usize;
    let sizeofcmds = u32_at(data, 20) as usize;
    let mut at = 32;
    let mut first_section_data = usize::MAX;
    let mut linkedit_end = 0u64;
    for _ in 0..ncmds {
        let (cmd, size) = (u32_at(data, at), u32_at(data, at + 4) as usize);
        if cmd == LC_CODE_SIGNATURE {
            return Ok(());
        }
        if cmd == LC_SEGMENT_64 {
            let name = &data[at + 8..at + 24];
            if name.starts_with(b"__LINKEDIT\0") {
                linkedit_end = u64_at(data, at + 40) + u64_at(data, at + 48);
            }
            for s in 0..u32_at(data, at + 64) as usize {
                let offset = u32_at(data, at + 72 + s * 80 + 48) as usize;
                if offset != 0 {
                    first_section_data = first_section_data.min(offset);
                }
            }
        }
        at += size;
    }
    if linkedit_end != data.len() as u64 {
        return Err("__LINKEDIT does not end the file".into());
    }
    let end_of_commands = 32 + sizeofcmds;
    if end_of_commands + 16 > first_section_data || data[end_of_commands..end_of_commands + 16].iter().any(|&b| b != 0) {
        return Err("no free space after the load commands for LC_CODE_SIGNATURE".into());
    }
    let dataoff = (data.len() + 15) / 16 * 16;
    data.resize(dataoff, 0);
    put_u32(data, end_of_commands, LC_CODE_SIGNATURE);
    put_u32(data, end_of_commands + 4, 16);
    put_u32(data, end_of_commands + 8, dataoff as u32);
    put_u32(data, end_of_commands + 12, 0);
    put_u32(data, 16, (ncmds + 1) as u32);
    put_u32(data, 20, (sizeofcmds + 16) as u32);
    // __LINKEDIT now reaches the padded end; the crate extends it over the signature.
    let mut at = 32;
    for _ in 0..ncmds {
        if u32_at(data, at) == LC_SEGMENT_64 && data[at + 8..at + 24].starts_with(b"__LINKEDIT\0") {
            let fileoff = u64_at(data, at + 40);
            let size = (dataoff as u64 - fileoff).to_le_bytes();
            data[at + 48..at + 56].copy_from_slice(&size); // filesize
        }
        at += u32_at(data, at + 4) as usize;
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: macho-adhoc-sign IN OUT");
        exit(2);
    }
    let fail = |what: &str, error: String| -> ! {
        eprintln!("macho-adhoc-sign: {what}: {error}");
        exit(1)
    };
    let mut data = std::fs::read(&args[1]).unwrap_or_else(|e| fail(&args[1], e.to_string()));
    reserve_signature_command(&mut data).unwrap_or_else(|e| fail(&args[1], e));
    let signer = apple_codesign_adhoc::MachoSigner::new(data).unwrap_or_else(|e| fail(&args[1], e.to_string()));
    let out = std::fs::File::create(&args[2]).unwrap_or_else(|e| fail(&args[2], e.to_string()));
    signer.sign(out).unwrap_or_else(|e| fail(&args[2], e.to_string()));
}
