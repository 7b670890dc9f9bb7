//! The check a layout editor runs after every edit: the layout written as
//! its file and read back by the loader, every ruling of the setup checked
//! (what `session::draft::Draft` does for each system). On the largest
//! shipped Frontiers layouts. The goal: within one frame at 60 Hz
//! (16.7 ms) for a typical edit.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn check(c: &mut Criterion) {
    for name in ["skirmish", "confrontation", "cameron-1"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/frontiers")
            .join(format!("{name}.ron"));
        let text = std::fs::read_to_string(&path).expect("a shipped skirmish");
        let skirmish = sandtable_scenario::skirmish::parse(&text, name).expect("it loads");
        c.bench_function(&format!("layout check: {name}"), |b| {
            b.iter(|| {
                let text = black_box(&skirmish).to_ron();
                sandtable_scenario::skirmish::parse(&text, "layout").expect("it loads")
            });
        });
    }
}

criterion_group!(benches, check);
criterion_main!(benches);
