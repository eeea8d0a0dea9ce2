// Per-call cost of indicatif's ProgressBar::inc(1), in nanoseconds; prints one JSON object.
use indicatif::{ProgressBar, ProgressDrawTarget};
use std::time::Instant;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000_000);
    let mut samples = Vec::new();
    for run in 0..6 {
        let bar = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr());
        let start = Instant::now();
        for _ in 0..n {
            bar.inc(1);
        }
        let elapsed = start.elapsed().as_nanos() as f64 / n as f64;
        bar.finish_and_clear();
        if run > 0 {
            samples.push(elapsed); // the first run warms up
        }
    }
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("{{\"indicatif inc(1)\": {}}}", samples[samples.len() / 2]);
}
