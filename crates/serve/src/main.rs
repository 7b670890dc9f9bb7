//! `sandtable-serve`: one game of any rule system, served over UDP to the
//! players' tables and headless clients (the library, `sandtable_serve`,
//! does the work; a table hosting a game runs the same server).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use sandtable_scenario::files::printable;
use sandtable_serve::{Args, Logging, prepare};

fn main() -> ExitCode {
    sandtable_cli::remove_temporary_files_when_stopped();
    let args = Args::parse();
    match prepare(&args, Logging::Own) {
        Ok(mut prepared) => {
            // What the host tells the players: printed at once, flushed.
            for line in prepared.lines(&args.scenario) {
                println!("{line}");
            }
            let _ = std::io::stdout().flush();
            prepared.app.run();
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{}", printable(&failure.message));
            ExitCode::from(failure.code)
        }
    }
}
