// SPDX-License-Identifier: Apache-2.0
//! Finds the installed libactivity through pkg-config (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a
//! prefix of your own) and links it with an rpath, so the program runs without LD_LIBRARY_PATH.
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let pkg_config = std::env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let output = Command::new(&pkg_config)
        .args(["--variable=libdir", "activity"])
        .output()
        .unwrap_or_else(|error| panic!("{pkg_config} could not be run: {error}"));
    let libdir = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !output.status.success() || libdir.is_empty() {
        panic!(
            "pkg-config finds no activity.pc: install libactivity (Scripts/install), and set \
             PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a prefix of your own\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
}
