//! The README's commands work as written, as a newcomer on a fresh clone would type them:
//! every command of its `sh` blocks is run, with the `empires` built for these tests standing
//! in for `cargo run ... --` and for an installed `empires`.
//!
//! Not run: `cargo install` and `cargo test`, the build and the tests themselves. The
//! tutorial script runs as written into a directory of its own, with these tests' `empires`
//! (`EMPIRES_BIN`) in place of its `cargo run`. `empires serve` runs until stopped: it is started on a free port, asked for its log-in page, and stopped.

use crate::common;

use common::*;
use std::fs;
use std::process::Command;

/// The README's shell commands, in order, comments cut off.
fn readme_commands() -> Vec<String> {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            l if l.starts_with("```") => in_sh = false,
            l if in_sh && !l.is_empty() => {
                let command = l.split("  #").next().unwrap_or(l).trim();
                out.push(command.to_string());
            }
            _ => {}
        }
    }
    out
}

/// The folder of the cargo running these tests.
fn cargo_dir() -> String {
    std::env::var("CARGO")
        .ok()
        .and_then(|c| {
            std::path::Path::new(&c)
                .parent()
                .map(|p| p.display().to_string())
        })
        .unwrap_or_default()
}

#[test]
fn every_readme_command_works_as_written() {
    let commands = readme_commands();
    assert!(
        commands.iter().any(|c| c.contains("-- demo")),
        "{commands:?}"
    );
    let tmp = tempfile::tempdir().unwrap();
    // A working directory like the repository's root: the map files where the README says.
    let work = tmp.path().join("clone");
    fs::create_dir(&work).unwrap();
    std::os::unix::fs::symlink(repo().join("maps"), work.join("maps")).unwrap();
    let bin = tmp.path().join("bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_empires"), bin.join("empires")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let game = tmp.path().join("game");
    let mut ran = 0;
    for c in &commands {
        if c.starts_with("cargo install") || c.starts_with("cargo test") {
            continue;
        }
        if c.starts_with("scripts/") {
            // Run from the repository, told where to play, with the `empires` these tests
            // built (cargo building the one package again would rebuild for minutes).
            let o = Command::new(repo().join(c))
                .arg(tmp.path().join("tutorial"))
                .env("EMPIRES_BIN", env!("CARGO_BIN_EXE_empires"))
                .env("PATH", format!("{}:{path}", cargo_dir()))
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{c}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            ran += 1;
            continue;
        }
        let line = c
            .replace("cargo run --release -p empires-cli --", "empires")
            .replace("cargo run -p empires-cli --", "empires")
            .replace("/tmp/game", game.to_str().unwrap());
        assert!(
            line.starts_with("empires ") || line.starts_with("cp "),
            "{line}"
        );
        if line.contains("empires serve") {
            serve_answers(&line, &work, &path);
            ran += 1;
            continue;
        }
        let o = Command::new("bash")
            .arg("-c")
            .arg(&line)
            .current_dir(&work)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "README command failed: {c}\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
        ran += 1;
    }
    assert!(ran >= 9, "{ran} commands run");
    // The demo made its game where the README says.
    assert!(
        work.join("empires-demo/turns/0006/reports/FR.html")
            .is_file()
    );
}

/// Starts the README's `empires serve` command on a free port, checks that it says how to
/// log in and serves the log-in page, and stops it.
fn serve_answers(line: &str, work: &std::path::Path, path: &str) {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("exec {line} --listen 127.0.0.1:0"))
        .current_dir(work)
        .env("PATH", path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = String::new();
    let mut addr = None;
    for l in BufReader::new(child.stdout.take().unwrap()).lines() {
        let l = l.unwrap();
        said.push_str(&l);
        said.push('\n');
        if let Some(at) = l.find("on http://") {
            addr = Some(l[at + 10..].split('/').next().unwrap().to_string());
            break;
        }
    }
    let addr = addr.unwrap_or_else(|| panic!("{line} never said where it serves: {said}"));
    assert!(said.contains("try-empires"), "{said}");
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Log in"), "{page}");
}
