//! Soak test of the four reference servers (issue 14; not part of CI).
//!
//! Each chosen server runs as a child process for `--minutes`, with honest bots playing game after
//! game and, beside them, a bounded stream of hostile clients: garbage, slowloris (one byte every
//! 2 s), silent (connect and say nothing) and vanishing (half a handshake, then gone). Every
//! minute it prints, per server, the resident memory (VmRSS) and the open file descriptors of the
//! server process (from /proc/PID) and the games completed so far. Loopback only; every loop is
//! bounded and stops by itself; every process it started is killed at the end.
//!
//! ```sh
//! cargo build --release --workspace --bins
//! nice -n 10 cargo run --release -p kibitz-bots-maumau --features research --example soak -- --minutes 10
//!     [--servers connect4,piranhas,maumau,koehandel] [--hostile-per-minute 60]
//! ```
//!
//! Games are counted on the honest side: a Mau-Mau or Piranhas game when both bot processes exit
//! 0, a Koehandel game when its market page says `over`, Connect Four games from the server's
//! `Season N ended` lines (2 bots: 2 games per season).

use clap::Parser;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Soak the reference servers with honest bots and hostile clients.
#[derive(Parser, Debug)]
struct Args {
    /// How long each server runs.
    #[arg(long, default_value_t = 10.0)]
    minutes: f64,
    /// Which servers (comma-separated): connect4, piranhas, maumau, koehandel.
    #[arg(long, default_value = "connect4,piranhas,maumau,koehandel")]
    servers: String,
    /// Hostile connections started per minute per server (each lives at most 30 s).
    #[arg(long, default_value_t = 60)]
    hostile_per_minute: u32,
    /// Directory holding the server and bot binaries (default: beside this example's directory).
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// First port to use (each server takes a few ports from here).
    #[arg(long, default_value_t = 47100)]
    base_port: u16,
}

/// Processes started by the soak, killed at the end whatever happens.
#[derive(Default)]
struct Children(Mutex<Vec<Child>>);

impl Children {
    fn spawn(&self, cmd: &mut Command) -> std::io::Result<u32> {
        let c = cmd.stdin(Stdio::null()).spawn()?;
        let id = c.id();
        self.0.lock().unwrap().push(c);
        Ok(id)
    }
    fn kill_all(&self) {
        for c in self.0.lock().unwrap().iter_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Shared per-server counters.
struct Soak {
    name: &'static str,
    pid: u32,
    games: AtomicU64,
    failed_games: AtomicU64,
    hostile: AtomicU64,
}

fn main() -> anyhow::Result<()> {
    let a = Args::parse();
    let bin_dir = match &a.bin_dir {
        Some(d) => d.clone(),
        None => std::env::current_exe()?
            .parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .ok_or_else(|| anyhow::anyhow!("cannot locate the binaries; pass --bin-dir"))?,
    };
    let bin = |n: &str| bin_dir.join(n);
    for n in [
        "connect4-server",
        "piranhas-server",
        "maumau-server",
        "koehandel-server",
    ] {
        anyhow::ensure!(
            bin(n).is_file(),
            "{} missing: run `cargo build --release --workspace --bins` first",
            bin(n).display()
        );
    }
    let children = Arc::new(Children::default());
    let stop = Arc::new(AtomicBool::new(false));
    let end = Instant::now() + Duration::from_secs_f64(a.minutes * 60.0);
    let mut soaks: Vec<Arc<Soak>> = Vec::new();
    let mut threads = Vec::new();
    let result = (|| -> anyhow::Result<()> {
        for (k, given) in a.servers.split(',').map(str::trim).enumerate() {
            let name: &'static str = ["connect4", "piranhas", "maumau", "koehandel"]
                .into_iter()
                .find(|n| *n == given)
                .ok_or_else(|| anyhow::anyhow!("unknown server {given:?}"))?;
            let port = a.base_port + 10 * k as u16;
            let s = start_server(name, port, &bin, &children)?;
            soaks.push(s.clone());
            threads.extend(honest(name, port, &bin, &children, &s, &stop)?);
            let (s2, stop2, rate) = (s.clone(), stop.clone(), a.hostile_per_minute);
            threads.push(std::thread::spawn(move || {
                hostile(name, port, rate, &s2, &stop2)
            }));
        }
        let dead = report(&soaks, end, &stop);
        anyhow::ensure!(dead.is_empty(), "server(s) died during the soak: {dead:?}");
        Ok(())
    })();
    stop.store(true, Ordering::SeqCst);
    children.kill_all();
    for t in threads {
        let _ = t.join();
    }
    result
}

fn start_server(
    name: &'static str,
    port: u16,
    bin: &dyn Fn(&str) -> PathBuf,
    children: &Children,
) -> anyhow::Result<Arc<Soak>> {
    let quiet = |c: &mut Command| {
        c.stdout(Stdio::null()).stderr(Stdio::null());
    };
    let mut cmd = match name {
        "connect4" => {
            let mut c = Command::new(bin("connect4-server"));
            c.env("PORT", port.to_string())
                .env("TIMEOUT", "250")
                .env("DELAY", "0")
                .env("MINPLAYERS", "2")
                .env("BIND", "127.0.0.1")
                .env("RUST_LOG", "warn");
            c
        }
        "piranhas" => {
            let mut c = Command::new(bin("piranhas-server"));
            c.args(["--port", &port.to_string(), "--log", "warn"]);
            quiet(&mut c);
            c
        }
        "maumau" => {
            let mut c = Command::new(bin("maumau-server"));
            c.args(["--port", &port.to_string(), "--games", "1000000"])
                .args(["--turn-timeout-ms", "2000"])
                .env("RUST_LOG", "warn");
            quiet(&mut c);
            c
        }
        "koehandel" => {
            let mut c = Command::new(bin("koehandel-server"));
            c.args(["--listen", &format!("127.0.0.1:{port}")])
                .args(["--deadline-ms", "2000"])
                .env("RUST_LOG", "warn");
            quiet(&mut c);
            c
        }
        other => anyhow::bail!("unknown server {other:?}"),
    };
    if name == "connect4" {
        // Its stdout carries the season summaries the game count is read from.
        cmd.stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.stdin(Stdio::null()).spawn()?;
        let out = child.stdout.take().expect("piped");
        let s = Arc::new(Soak {
            name,
            pid: child.id(),
            games: AtomicU64::new(0),
            failed_games: AtomicU64::new(0),
            hostile: AtomicU64::new(0),
        });
        children.0.lock().unwrap().push(child);
        let s2 = s.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if line.starts_with("Season ") && line.ends_with(" ended") {
                    s2.games.fetch_add(2, Ordering::Relaxed);
                }
            }
        });
        std::thread::sleep(Duration::from_millis(300));
        return Ok(s);
    }
    let pid = children.spawn(&mut cmd)?;
    std::thread::sleep(Duration::from_millis(500));
    Ok(Arc::new(Soak {
        name,
        pid,
        games: AtomicU64::new(0),
        failed_games: AtomicU64::new(0),
        hostile: AtomicU64::new(0),
    }))
}

/// Starts the honest bots; returns the threads that run game after game.
fn honest(
    name: &'static str,
    port: u16,
    bin: &dyn Fn(&str) -> PathBuf,
    children: &Arc<Children>,
    s: &Arc<Soak>,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Vec<std::thread::JoinHandle<()>>> {
    let mut out = Vec::new();
    let run_pair = |mk: Box<dyn Fn(u64) -> Command + Send>| {
        let (s, stop) = (s.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut k = 0u64;
            while !stop.load(Ordering::SeqCst) {
                let mut pair: Vec<Child> = (0..2)
                    .filter_map(|i| {
                        mk(2 * k + i)
                            .stdin(Stdio::null())
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .spawn()
                            .ok()
                    })
                    .collect();
                // Bounded wait: a game that hangs is killed after 120 s and counted as failed.
                let t = Instant::now();
                let mut ok = pair.len() == 2;
                for c in pair.iter_mut() {
                    loop {
                        match c.try_wait() {
                            Ok(Some(st)) => {
                                ok &= st.success();
                                break;
                            }
                            Ok(None)
                                if t.elapsed() < Duration::from_secs(120)
                                    && !stop.load(Ordering::SeqCst) =>
                            {
                                std::thread::sleep(Duration::from_millis(50))
                            }
                            _ => {
                                let _ = c.kill();
                                let _ = c.wait();
                                ok = false;
                                break;
                            }
                        }
                    }
                }
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let counter = if ok { &s.games } else { &s.failed_games };
                counter.fetch_add(1, Ordering::Relaxed);
                k += 1;
            }
        })
    };
    match name {
        "connect4" => {
            for (i, n) in ["soakA", "soakB"].iter().enumerate() {
                children.spawn(
                    Command::new(bin("connect4-bot"))
                        .args(["--port", &port.to_string(), "--name", n])
                        .args(["--random", &(i + 1).to_string()])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null()),
                )?;
            }
        }
        "piranhas" => {
            let b = bin("piranhas-bot");
            out.push(run_pair(Box::new(move |k| {
                let mut c = Command::new(&b);
                c.args(["-h", "127.0.0.1", "-p", &port.to_string()])
                    .args(["--player", "random", "--seed", &k.to_string()])
                    .args(["--log", "warn"]);
                c
            })));
        }
        "maumau" => {
            let b = bin("maumau-bot");
            out.push(run_pair(Box::new(move |k| {
                let mut c = Command::new(&b);
                c.args(["--port", &port.to_string(), "--strategy", "random"])
                    .args([
                        "--name",
                        &format!("soak{}", k % 2),
                        "--seed",
                        &k.to_string(),
                    ])
                    .env("RUST_LOG", "warn");
                c
            })));
        }
        "koehandel" => {
            let urls: Vec<String> = (1..=4)
                .map(|i| format!("http://127.0.0.1:{}/", port + i))
                .collect();
            for i in 1..=4u16 {
                children.spawn(
                    Command::new(bin("koehandel-bot"))
                        .args(["--listen", &format!("127.0.0.1:{}", port + i)])
                        .args(["--strategy", "random"])
                        .env("RUST_LOG", "warn")
                        .stdout(Stdio::null())
                        .stderr(Stdio::null()),
                )?;
            }
            let (s, stop) = (s.clone(), stop.clone());
            out.push(std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(500));
                let q: Vec<String> = urls
                    .iter()
                    .enumerate()
                    .map(|(i, u)| {
                        format!("url{}={}", i + 1, u.replace(':', "%3A").replace('/', "%2F"))
                    })
                    .collect();
                while !stop.load(Ordering::SeqCst) {
                    let reply = http_get(port, &format!("/?connect&{}", q.join("&")));
                    let market = reply
                        .as_deref()
                        .and_then(|r| r.split("market=").nth(1))
                        .and_then(|r| r.split('&').next())
                        .map(|m| m.trim().to_string());
                    let Some(m) = market else {
                        s.failed_games.fetch_add(1, Ordering::Relaxed);
                        std::thread::sleep(Duration::from_secs(1));
                        continue;
                    };
                    let t = Instant::now();
                    loop {
                        std::thread::sleep(Duration::from_millis(300));
                        if stop.load(Ordering::SeqCst) {
                            return;
                        }
                        let page = http_get(port, &format!("/?market={m}")).unwrap_or_default();
                        if page.contains("over: ") {
                            s.games.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                        if t.elapsed() > Duration::from_secs(300) {
                            s.failed_games.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            }));
        }
        _ => {}
    }
    Ok(out)
}

/// One HTTP/1.0 GET on loopback; the body, or None on any error (5 s timeouts).
fn http_get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut body = String::new();
    s.take(1 << 20).read_to_string(&mut body).ok()?;
    Some(
        body.split_once("\r\n\r\n")
            .map_or(body.clone(), |(_, b)| b.to_string()),
    )
}

/// The bounded hostile stream: `rate` connections per minute, at most 40 alive at once, each
/// closed after at most 30 s.
fn hostile(name: &'static str, port: u16, rate: u32, s: &Soak, stop: &AtomicBool) {
    let alive = Arc::new(AtomicU64::new(0));
    let gap = Duration::from_secs_f64(60.0 / rate.max(1) as f64);
    let mut k = 0u64;
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(gap);
        if alive.load(Ordering::SeqCst) >= 40 {
            continue;
        }
        k += 1;
        s.hostile.fetch_add(1, Ordering::Relaxed);
        if name == "connect4" {
            udp_garbage(port, k);
            continue;
        }
        let alive2 = alive.clone();
        alive.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || {
            let _ = tcp_hostile(name, port, k);
            alive2.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// A few datagrams the UDP server must shrug off: random bytes, unknown commands, stale tokens,
/// oversized, invalid UTF-8. No registrations (they would add players to every season).
fn udp_garbage(port: u16, k: u64) {
    let Ok(sock) = UdpSocket::bind("127.0.0.1:0") else {
        return;
    };
    let big = vec![b'x'; 4000];
    let msgs: [&[u8]; 6] = [
        b"HELLO",
        b"INSERT;3;0123456789abcdef0123456789abcdef",
        b"JOIN;",
        b"\xff\xfe\x00garbage",
        &big,
        b"UNREGISTER;nobody",
    ];
    let _ = sock.send_to(msgs[(k % 6) as usize], ("127.0.0.1", port));
}

fn tcp_hostile(name: &str, port: u16, k: u64) -> std::io::Result<()> {
    let mut c = TcpStream::connect(("127.0.0.1", port))?;
    c.set_write_timeout(Some(Duration::from_secs(5)))?;
    let handshake: &[u8] = match name {
        "piranhas" => b"<protocol><join gameType=\"swc_2019_piranhas\"/>",
        "maumau" => b"{\"status\":\"okay\",\"name\":\"vanish\"}\n",
        _ => b"GET /?connect&url1=http%3A%2F%2F127.0.0.1%3A1%2F HTTP/1.1\r\nHost: x\r\n",
    };
    match k % 4 {
        // Garbage: random-looking bytes, then close.
        0 => {
            let junk: Vec<u8> = (0..4096u64)
                .map(|i| (i.wrapping_mul(2654435761).wrapping_add(k) >> 7) as u8)
                .collect();
            let _ = c.write_all(&junk);
        }
        // Slowloris: the handshake one byte every 2 s, for at most 30 s.
        1 => {
            for b in handshake.iter().take(15) {
                if c.write_all(&[*b]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_secs(2));
            }
        }
        // Silent: connect and say nothing for 30 s (reading whatever comes).
        2 => {
            c.set_read_timeout(Some(Duration::from_secs(30)))?;
            let mut buf = [0u8; 4096];
            let t = Instant::now();
            while t.elapsed() < Duration::from_secs(30) {
                match c.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        // Vanishing: half the handshake, then gone.
        _ => {
            let _ = c.write_all(&handshake[..handshake.len() / 2]);
        }
    }
    Ok(())
}

/// VmRSS in KiB and the number of open fds of `pid`.
fn proc_stats(pid: u32) -> (Option<u64>, Option<usize>) {
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        });
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .ok()
        .map(|d| d.count());
    (rss, fds)
}

/// Prints the per-minute table and the summary; returns the servers that died.
fn report(soaks: &[Arc<Soak>], end: Instant, stop: &AtomicBool) -> Vec<&'static str> {
    let start = Instant::now();
    let first: Vec<_> = soaks.iter().map(|s| proc_stats(s.pid)).collect();
    println!("minute\tserver\trss_kib\tfds\tgames\tfailed\thostile");
    let mut minute = 0;
    loop {
        let next = start + Duration::from_secs(60 * (minute + 1));
        let wake = next.min(end);
        while Instant::now() < wake {
            std::thread::sleep(Duration::from_millis(200));
        }
        minute += 1;
        for s in soaks {
            let (rss, fds) = proc_stats(s.pid);
            println!(
                "{:.1}\t{}\t{}\t{}\t{}\t{}\t{}",
                start.elapsed().as_secs_f64() / 60.0,
                s.name,
                rss.map_or("DEAD".into(), |r| r.to_string()),
                fds.map_or("DEAD".into(), |f| f.to_string()),
                s.games.load(Ordering::Relaxed),
                s.failed_games.load(Ordering::Relaxed),
                s.hostile.load(Ordering::Relaxed)
            );
        }
        if Instant::now() >= end {
            break;
        }
    }
    stop.store(true, Ordering::SeqCst);
    println!("summary (first sample after start -> last):");
    let mut dead = Vec::new();
    for (s, (rss0, fds0)) in soaks.iter().zip(first) {
        let (rss, fds) = proc_stats(s.pid);
        if rss.is_none() {
            dead.push(s.name);
        }
        println!(
            "{}: rss {} -> {} KiB, fds {} -> {}, {} games, {} failed, {} hostile connections",
            s.name,
            rss0.unwrap_or(0),
            rss.map_or("DEAD".into(), |r| r.to_string()),
            fds0.unwrap_or(0),
            fds.map_or("DEAD".into(), |f| f.to_string()),
            s.games.load(Ordering::Relaxed),
            s.failed_games.load(Ordering::Relaxed),
            s.hostile.load(Ordering::Relaxed)
        );
    }
    dead
}
