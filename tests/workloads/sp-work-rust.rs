// SPDX-License-Identifier: GPL-3.0-or-later
// sp-work-rust: a Rust program for the conformance matrix, built as a
// release build (rustc -O) by the test: std's runtime starts main, and a
// std::thread runs beside it.
//
//   sp-work-rust SECONDS
//
// both threads: sp_work_rust::rust_worker → sp_work_rust::rust_leaf
use std::time::{Duration, Instant};

#[inline(never)]
fn rust_leaf(seed: u64) -> u64 {
    let mut x = seed | 1;
    for _ in 0..20000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    }
    x
}

#[inline(never)]
fn rust_worker(until: Instant) -> u64 {
    let mut sum = 0u64;
    while Instant::now() < until {
        sum = sum.wrapping_add(rust_leaf(sum));
    }
    sum
}

fn main() {
    let seconds: f64 = match std::env::args().nth(1).map(|s| s.parse()) {
        Some(Ok(seconds)) => seconds,
        _ => {
            eprintln!("usage: sp-work-rust SECONDS");
            std::process::exit(2);
        }
    };
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let worker = std::thread::spawn(move || rust_worker(until));
    let sum = rust_worker(until);
    println!("{}", sum ^ worker.join().unwrap());
}
