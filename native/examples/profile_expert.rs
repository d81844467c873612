//! Time the native analysis of positions read from a file (one raw position per line:
//! width height mines hex-bytes), for profiling with perf.
use std::io::BufRead;

use _native::constraints::Board;
use _native::exact::analyze;
use _native::limits::Deadline;

fn main() {
    let path = std::env::args().nth(1).expect("a file of positions");
    let rounds: usize = std::env::args().nth(2).map_or(200, |r| r.parse().unwrap());
    let mut boards = Vec::new();
    for line in std::io::BufReader::new(std::fs::File::open(path).unwrap()).lines() {
        let line = line.unwrap();
        let mut parts = line.split_whitespace();
        let w: usize = parts.next().unwrap().parse().unwrap();
        let h: usize = parts.next().unwrap().parse().unwrap();
        let m: u64 = parts.next().unwrap().parse().unwrap();
        let hex = parts.next().unwrap();
        let cells: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        boards.push((w, h, m, cells));
    }
    let start = std::time::Instant::now();
    let mut sink = 0usize;
    for _ in 0..rounds {
        for (w, h, m, cells) in &boards {
            let b = Board {
                width: *w,
                height: *h,
                cells,
                mines: Some(*m),
                trust_flags: true,
            };
            sink += analyze(&b, &Deadline::none())
                .map(|a| a.safe.len())
                .unwrap_or(0);
        }
    }
    let per = start.elapsed().as_secs_f64() / (rounds * boards.len()) as f64;
    println!("{:.2} us per position ({sink})", per * 1e6);
}
