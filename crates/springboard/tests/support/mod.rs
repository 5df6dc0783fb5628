//! What the binary's integration tests share: a `springboard serve`
//! process on a port of its choosing, its address read from the line it
//! prints, killed when dropped; and one plain HTTP/1.1 request over TCP
//! (std only, so a test runs against any version of the server).
//! Each test file takes it with `mod support;` and uses what it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `springboard serve`, killed (and its data directory, if it
/// was given one by [`Server::start`], removed) when dropped.
pub struct Server {
    pub child: Child,
    /// `host:port`.
    pub addr: String,
    dir: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Server {
    /// Starts `springboard serve --port 0` with `args` after it; `configure`
    /// may set the environment and standard error (taken from `child`
    /// afterwards when piped). Standard output is read here, to the end,
    /// for the "running at http://" line; panics if none comes in 30 s.
    pub fn start(args: &[&str], configure: impl FnOnce(&mut Command)) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_springboard"));
        command
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped());
        configure(&mut command);
        let mut child = command.spawn().expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("running at http://").nth(1) {
                    let _ = tx.send(rest.split('/').next().unwrap_or_default().to_string());
                }
            }
        });
        let mut server = Server {
            child,
            addr: String::new(),
            dir: None,
        };
        server.addr = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server printed no URL within 30 s");
        server
    }

    /// [`Server::start`] on a fresh data directory of its own, named after
    /// `name` and this process, removed when the server is dropped.
    pub fn start_fresh(name: &str, configure: impl FnOnce(&mut Command)) -> Server {
        let dir = std::env::temp_dir().join(format!("springboard-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir
            .to_str()
            .expect("a UTF-8 temporary directory")
            .to_string();
        let mut server = Server::start(&["--data", &data], configure);
        server.dir = Some(dir);
        server
    }
}

/// One request (`headers`: extra header lines, each ending in `\r\n`)
/// from the site's own page (its `Origin`, which the CSRF check wants):
/// its status and body.
pub fn http(addr: &str, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{headers}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}
