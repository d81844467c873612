//! Plays expert games natively and prints the CPU time per game (for profiling):
//! `cargo run --release --example play_bench -- greedy 500`.

use std::time::Instant;

use _native::game::FirstClick;
use _native::limits::Deadline;
use _native::players::by_name;
use _native::simulate::{play_batch, LayoutSource, Setup};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("greedy", String::as_str).to_owned();
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let setup = Setup {
        width: 30,
        height: 16,
        mines: 99,
        start: 0,
        rule: FirstClick::Safe,
    };
    let list: Vec<(LayoutSource, u64)> = (0..games)
        .map(|i| (LayoutSource::Seed(i * 7919 + 1), i * 104_729 + 3))
        .collect();
    let make = || by_name(&name).expect("a native player");
    let began = Instant::now();
    let results = play_batch(&make, &setup, &list, false, &Deadline::none()).expect("played");
    let seconds = began.elapsed().as_secs_f64();
    let wins = results.iter().filter(|r| r.won).count();
    let analyses = _native::players::ANALYSES.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "{name}: {games} games, {wins} won, {:.3} ms a game, {:.0} games/s, {:.1} analyses a game",
        1e3 * seconds / games as f64,
        games as f64 / seconds,
        analyses as f64 / games as f64
    );
}
