//! Draws indicatif progress bars, one scenario per run, for the indicatif adapter's fixtures:
//! `indicatif-bars SCENARIO`, where SCENARIO is default, template, bytes, multi or failed.
//! indicatif draws at most 20 times a second, so the frames captured differ from run to run,
//! not what they show.

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::{env, process, thread, time::Duration};

fn pause() {
    thread::sleep(Duration::from_millis(25));
}

/// The default style, `{wide_bar} {pos}/{len}`, with a line printed above the bar midway.
fn default_bar() {
    let bar = ProgressBar::new(40);
    for step in 0..40 {
        bar.inc(1);
        if step == 20 {
            bar.println("checkpoint saved");
        }
        pause();
    }
    bar.finish();
}

/// indicatif's own example template, with a message that changes.
fn template() {
    let bar = ProgressBar::new(30);
    let style = ProgressStyle::with_template("{spinner} [{elapsed_precise}] [{bar:40.cyan/blue}] {pos}/{len} {msg}")
        .unwrap()
        .progress_chars("#>-");
    bar.set_style(style);
    for step in 0..30 {
        bar.set_message(format!("compiling unit {step}"));
        bar.inc(1);
        pause();
    }
    bar.finish_with_message("done");
}

/// A download: `{bytes}/{total_bytes}` in binary units.
fn bytes() {
    let total = 5 * 1024 * 1024;
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(
        "{spinner:.green} [{elapsed_precise}] [{wide_bar:.cyan/blue}] {bytes}/{total_bytes} ({eta})",
    )
    .unwrap()
    .progress_chars("#>-");
    bar.set_style(style);
    for _ in 0..50 {
        bar.inc(total / 50);
        pause();
    }
    bar.finish();
}

/// Two bars of a MultiProgress, the second finishing later.
fn multi() {
    let multi = MultiProgress::new();
    let style = ProgressStyle::with_template("[{elapsed_precise}] {bar:40.cyan/blue} {pos:>7}/{len:7} {msg}").unwrap();
    let first = multi.add(ProgressBar::new(20));
    first.set_style(style.clone());
    first.set_message("fetching");
    let second = multi.add(ProgressBar::new(40));
    second.set_style(style);
    second.set_message("building");
    for step in 0..40 {
        if step < 20 {
            first.inc(1);
        } else if step == 20 {
            first.finish_with_message("fetched");
        }
        second.inc(1);
        pause();
    }
    second.finish_with_message("built");
}

/// A bar abandoned at 12 of 30, then an error and exit status 1.
fn failed() {
    let bar = ProgressBar::new(30);
    for _ in 0..12 {
        bar.inc(1);
        pause();
    }
    bar.abandon();
    eprintln!("error: connection reset");
    process::exit(1);
}

fn main() {
    match env::args().nth(1).as_deref() {
        Some("default") => default_bar(),
        Some("template") => template(),
        Some("bytes") => bytes(),
        Some("multi") => multi(),
        Some("failed") => failed(),
        _ => {
            eprintln!("usage: indicatif-bars default|template|bytes|multi|failed");
            process::exit(2);
        }
    }
}
