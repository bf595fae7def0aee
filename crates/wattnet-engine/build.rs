//! Stamps the engine with a hash of its sources, so that results cached under an engine
//! version (sweeps) are never reused by a different engine with the same package version.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let mut files = vec![];
    sources(Path::new("src"), &mut files);
    files.sort();
    // SipHash with fixed keys: the same sources give the same stamp on every build.
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        hash.write(file.to_string_lossy().as_bytes());
        hash.write(&std::fs::read(file).expect("a source file is readable"));
    }
    println!("cargo:rustc-env=WATTNET_SOURCE_HASH={:016x}", hash.finish());
    println!("cargo:rerun-if-changed=src");
}
