//! The app's command line, read into [`Options`] without touching Bevy or
//! the disk, so that every argument can be checked (and fuzzed) on its own.
//! Whether a `--bot` seat is a player of the game is checked once the game
//! is open ([`Options::check_seats`]).

use std::path::PathBuf;

/// The highest seat index `--bot` takes: a seat of the contract is 16 bits.
const MAX_SEAT: usize = u16::MAX as usize;

/// What `sandtable --help` prints.
pub const USAGE: &str = "usage: sandtable [FILE.ron | GAME.moves [--review]] [--bot P=LEVEL]... [--layout] [--screenshot PNG [--frames N]] [--bench-frames N]
              sandtable --join INVITATION [--screenshot PNG [--frames N]]
       sandtable --host FILE.ron --port N [--public IP:PORT] [--seat P] [--bot P=LEVEL]... [--save GAME.moves]


  FILE.ron           a scenario to play (default: the embedded standard table)
  GAME.moves         a saved game to resume
  --review           look back at GAME.moves: step through it from either side's eyes, with the
                     turning points the search finds, and play on from any position as a new game
  --screenshot PNG   save a screenshot after N frames (default 30), then exit
  --bot P=LEVEL      player P (0 is the first) is a bot of strength 1 (random) to 5
  --layout           start in layout mode (rulers, measuring and the editor)
  --bench-frames N   run N frames, print the time spent in Sandtable's own systems, then exit
  --join INVITATION  play (or watch) a served game with the invitation its host gave: the
                     invitation's file, or its sandtable://join/ link
  --host FILE.ron    serve the scenario from this table on UDP port N (--port) and play seat P
                     (default 0); this machine holds every secret of the game: for players who
                     do not trust the host, run sandtable-serve on a machine none of them plays at
  --public IP:PORT   the address the other players join (default: this machine alone, 127.0.0.1)
  --save GAME.moves  the hosted game's record (resumed when it holds a game of the scenario)";

/// The command line, read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Options {
    /// The scenario or saved game to open.
    pub file: Option<PathBuf>,
    /// Where to save a screenshot.
    pub screenshot: Option<PathBuf>,
    /// The frame the screenshot is taken at.
    pub frames: u32,
    /// Frames to time for `--bench-frames`.
    pub bench_frames: Option<u32>,
    /// Start in layout mode.
    pub layout: bool,
    /// Open the saved game in review.
    pub review: bool,
    /// Bot seats: player index and strength.
    pub bots: Vec<(usize, u8)>,
    /// The invitation to join with (`--join`): its link, or its file's
    /// path, read when the app starts.
    pub join: Option<String>,
    /// The game this table serves (`--host`).
    pub host: Option<Host>,
}

/// A game served from the table (`--host`): the server runs on a thread of
/// the app, and the table joins it like any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// The scenario served.
    pub scenario: PathBuf,
    /// The UDP port it listens on (0: a free one).
    pub port: u16,
    /// The address other players join; `None`: this machine alone.
    pub public: Option<std::net::SocketAddr>,
    /// The seat the host plays.
    pub seat: u16,
    /// The referee's record (`--save`).
    pub save: Option<PathBuf>,
}

impl Options {
    /// Reads the arguments after the program's name. `Err` holds what to
    /// print: the usage for `--help`, else the problem and the usage.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
        let mut options = Options {
            frames: 30,
            ..Options::default()
        };
        let mut args = args.into_iter();
        let mut seat_given = None;
        let (mut host, mut port, mut public, mut save) = (None, None, None, None);
        let number = |v: Option<String>, flag: &str| -> Result<u32, String> {
            v.and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{flag} needs a number of frames\n\n{USAGE}"))
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "-h" | "--help" => return Err(USAGE.to_owned()),
                "--screenshot" => {
                    let path = args
                        .next()
                        .ok_or_else(|| format!("--screenshot needs a file name\n\n{USAGE}"))?;
                    options.screenshot = Some(path.into());
                }
                "--frames" => options.frames = number(args.next(), "--frames")?,
                "--layout" => options.layout = true,
                "--review" => options.review = true,
                "--bot" => {
                    let seat = args.next().unwrap_or_default();
                    let max = sandtable_bots::MAX_STRENGTH;
                    let parsed = seat.split_once('=').and_then(|(p, l)| {
                        let player: usize = p.trim().parse().ok()?;
                        let level: u8 = l.trim().parse().ok()?;
                        // A seat of the contract is 16 bits; the game opened
                        // says how many it has (`check_seats`).
                        let fits = player <= MAX_SEAT && (1..=max).contains(&level);
                        fits.then_some((player, level))
                    });
                    let (player, level) = parsed.ok_or_else(|| {
                        format!(
                            "--bot needs PLAYER=LEVEL, a player index and a strength 1 to {max}, not `{seat}`\n\n{USAGE}"
                        )
                    })?;
                    if options.bots.iter().any(|(p, _)| *p == player) {
                        return Err(format!(
                            "--bot {seat}: player {player} already has a bot\n\n{USAGE}"
                        ));
                    }
                    options.bots.push((player, level));
                }
                "--bench-frames" => {
                    options.bench_frames = Some(number(args.next(), "--bench-frames")?);
                }
                "--join" => {
                    let given = args.next().unwrap_or_default();
                    if given.trim().is_empty() || given.starts_with('-') {
                        return Err(format!(
                            "--join needs the invitation the host gave: its file, or its sandtable://join/ link, not `{given}`\n\n{USAGE}"
                        ));
                    }
                    options.join = Some(given);
                }
                "--seat" => {
                    let seat = args.next().unwrap_or_default();
                    if seat.trim().is_empty() || seat.starts_with('-') {
                        return Err(format!(
                            "--seat needs a player's index or name, not `{seat}`\n\n{USAGE}"
                        ));
                    }
                    seat_given = Some(seat);
                }
                "--code" => {
                    return Err(format!(
                        "--code: a served game is joined with its invitation, which holds the seat's code: --join INVITATION\n\n{USAGE}"
                    ));
                }
                "--host" => {
                    host = Some(PathBuf::from(args.next().ok_or_else(|| {
                        format!("--host needs the scenario to serve\n\n{USAGE}")
                    })?));
                }
                "--port" => {
                    let at = args.next().unwrap_or_default();
                    port = Some(at.parse::<u16>().map_err(|_| {
                        format!("--port needs a UDP port number, 0 to 65535, not `{at}`\n\n{USAGE}")
                    })?);
                }
                "--public" => {
                    let at = args.next().unwrap_or_default();
                    public = Some(at.parse().map_err(|_| {
                        format!("--public needs the IP:PORT other players join, as 192.168.1.20:5000, not `{at}`\n\n{USAGE}")
                    })?);
                }
                "--save" => {
                    save = Some(PathBuf::from(args.next().ok_or_else(|| {
                        format!("--save needs the record's file name\n\n{USAGE}")
                    })?));
                }
                flag if flag.starts_with('-') => {
                    return Err(format!("unknown option {flag}\n\n{USAGE}"));
                }
                _ if options.file.is_none() => options.file = Some(arg.into()),
                _ => return Err(format!("only one file can be opened\n\n{USAGE}")),
            }
        }
        if let Some(scenario) = host {
            let port = port
                .ok_or_else(|| format!("--host needs the port to serve on: --port N\n\n{USAGE}"))?;
            if options.join.is_some() || options.file.is_some() || options.layout || options.review
            {
                return Err(format!(
                    "--host serves its scenario and plays it: no --join, other file, --layout or --review with it\n\n{USAGE}"
                ));
            }
            if let Some(public) = public {
                let public: std::net::SocketAddr = public;
                if public.port() != port || port == 0 {
                    return Err(format!(
                        "--public {public}: the port players join is the port served, {port}\n\n{USAGE}"
                    ));
                }
            }
            options.host = Some(Host {
                scenario,
                port,
                public,
                seat: match seat_given {
                    None => 0,
                    Some(seat) => seat.parse().map_err(|_| {
                        format!(
                            "--seat with --host needs the player's index, not `{seat}`\n\n{USAGE}"
                        )
                    })?,
                },
                save,
            });
            return Ok(options);
        }
        if port.is_some() || public.is_some() || save.is_some() {
            return Err(format!(
                "--port, --public and --save go with --host\n\n{USAGE}"
            ));
        }
        if seat_given.is_some() {
            return Err(format!(
                "--seat goes with --host: a joined game's seat is the one its invitation is for\n\n{USAGE}"
            ));
        }
        if options.join.is_some()
            && (options.file.is_some() || !options.bots.is_empty() || options.layout)
        {
            return Err(format!(
                "--join plays the server's game: no file, --bot or --layout with it\n\n{USAGE}"
            ));
        }
        if options.review
            && (options.layout
                || options.join.is_some()
                || options
                    .file
                    .as_ref()
                    .is_none_or(|f| f.extension().is_none_or(|e| e != "moves")))
        {
            return Err(format!(
                "--review looks back at a saved game: one GAME.moves, and no --layout or --join with it\n\n{USAGE}"
            ));
        }
        Ok(options)
    }

    /// Refuses a `--bot` seat that is not a player of a game of `players`.
    pub fn check_seats(&self, players: usize) -> Result<(), String> {
        match self.bots.iter().find(|(p, _)| *p >= players) {
            Some((p, level)) => Err(format!(
                "--bot {p}={level}: this game has {players} players, numbered 0 to {}\n\n{USAGE}",
                players.saturating_sub(1)
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn seats_past_any_game_and_bad_levels_are_refused_with_the_usage() {
        for args in [
            &["--bot", "18446744073709551615=1"][..],
            &["--bot", "4000000000=1"],
            &["--bot", "1=6"],
            &["--bot", "1"],
            &["--bot"],
            &["--bot", "0=2", "--bot", "0=3"],
        ] {
            let err = parse(args).expect_err("refused");
            assert!(err.ends_with(USAGE), "{args:?}: the usage follows: {err}");
        }
        let options = parse(&["x.ron", "--bot", "1=3"]).expect("a seat");
        assert_eq!(options.bots, vec![(1, 3)]);
        let err = options.check_seats(1).expect_err("one player: no seat 1");
        assert!(
            err.starts_with("--bot 1=3: this game has 1 players"),
            "{err}"
        );
        assert!(options.check_seats(2).is_ok());
        // Any seat of the contract is taken, and the game opened says
        // whether it has it; beyond 16 bits none is.
        let far = parse(&["--bot", "20000=1"]).expect("a seat of the contract");
        assert!(far.check_seats(2).is_err() && far.check_seats(20_001).is_ok());
        assert!(parse(&["--bot", "65536=1"]).is_err());
    }

    #[test]
    fn join_takes_an_invitation_and_nothing_of_a_local_game() {
        let options = parse(&["--join", "seat-1-blue.invite"]).expect("joined");
        assert_eq!(options.join.as_deref(), Some("seat-1-blue.invite"));
        let linked = parse(&["--join", "sandtable://join/AQAB"]).expect("joined");
        assert_eq!(linked.join.as_deref(), Some("sandtable://join/AQAB"));
        for (args, why) in [
            (&["--join"][..], "the invitation the host gave"),
            (&["--join", "--screenshot"], "the invitation the host gave"),
            (
                &["--join", "a.invite", "--seat", "1"],
                "its invitation is for",
            ),
            (
                &["--join", "a.invite", "--code", "x"],
                "holds the seat's code",
            ),
            (&["--seat", "1"], "goes with --host"),
            (&["--join", "a.invite", "x.ron"], "no file"),
            (&["--join", "a.invite", "--bot", "1=2"], "no file"),
            (&["--review"], "one GAME.moves"),
            (&["x.ron", "--review"], "one GAME.moves"),
            (&["x.moves", "--review", "--layout"], "no --layout"),
            (
                &["--host", "x.ron", "--port", "5000", "--review"],
                "--review with it",
            ),
        ] {
            let err = parse(args).expect_err("refused");
            assert!(err.contains(why), "{args:?}: {err}");
            assert!(err.ends_with(USAGE), "{args:?}: the usage follows");
        }
    }

    #[test]
    fn review_opens_a_saved_game_in_review() {
        let options = parse(&["game.moves", "--review", "--bot", "1=2"]).expect("reviewed");
        assert!(options.review);
        assert_eq!(options.file, Some(PathBuf::from("game.moves")));
        assert!(!parse(&["game.moves"]).expect("opened").review);
    }

    #[test]
    fn host_takes_a_scenario_a_port_and_the_seat_played_and_refuses_a_mix_with_join() {
        let options = parse(&[
            "--host",
            "s.ron",
            "--port",
            "5000",
            "--public",
            "10.0.0.2:5000",
            "--bot",
            "1=3",
        ])
        .expect("hosted");
        assert_eq!(
            options.host,
            Some(Host {
                scenario: "s.ron".into(),
                port: 5000,
                public: Some("10.0.0.2:5000".parse().expect("an address")),
                seat: 0,
                save: None,
            })
        );
        assert_eq!(options.bots, [(1, 3)]);
        let seated = parse(&[
            "--host", "s.ron", "--port", "0", "--seat", "1", "--save", "g.moves",
        ])
        .expect("hosted at seat 1");
        let host = seated.host.expect("a host");
        assert_eq!((host.seat, host.save), (1, Some("g.moves".into())));
        for (args, why) in [
            (&["--host", "s.ron"][..], "--port N"),
            (&["--host"], "scenario to serve"),
            (&["--host", "s.ron", "--port", "70000"], "0 to 65535"),
            (
                &["--host", "s.ron", "--port", "1", "--join", "a.invite"],
                "no --join",
            ),
            (&["--host", "s.ron", "--port", "1", "t.ron"], "other file"),
            (
                &["--host", "s.ron", "--port", "1", "--public", "10.0.0.2:2"],
                "the port served",
            ),
            (
                &["--host", "s.ron", "--port", "1", "--public", "here"],
                "IP:PORT",
            ),
            (
                &["--host", "s.ron", "--port", "1", "--seat", "Red"],
                "the player's index",
            ),
            (&["--port", "1"], "go with --host"),
            (&["x.ron", "--save", "g.moves"], "go with --host"),
        ] {
            let err = parse(args).expect_err("refused");
            assert!(err.contains(why), "{args:?}: {err}");
            assert!(err.ends_with(USAGE), "{args:?}: the usage follows");
        }
    }

    /// Words the command line is made of, and values at the limits.
    const WORDS: &[&str] = &[
        "--bot",
        "--host",
        "--port",
        "--public",
        "--save",
        "5000",
        "127.0.0.1:5000",
        "--layout",
        "--screenshot",
        "--frames",
        "--bench-frames",
        "--help",
        "-h",
        "--",
        "-",
        "=",
        "0=1",
        "1=5",
        "1=6",
        "0=0",
        "=1",
        "1=",
        "18446744073709551615=1",
        "4000000000=1",
        "16382=1",
        "16383=1",
        "65535=1",
        "65536=1",
        "-1=2",
        "4294967295",
        "-1",
        "x.ron",
        "g.moves",
        "",
        " ",
        "é=♞",
        "\u{1b}[31m",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: std::env::var("SANDTABLE_FUZZ_CASES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(1024),
            failure_persistence: None,
            ..Default::default()
        })]

        /// Fuzz target: any command line is read or refused with the usage,
        /// and what is read names no seat past any game.
        #[test]
        fn any_command_line_is_read_or_refused(
            picks in proptest::collection::vec((0..WORDS.len(), ".{0,6}", proptest::bool::ANY), 0..10),
        ) {
            let args: Vec<String> = picks
                .into_iter()
                .map(|(w, free, pick)| if pick { WORDS[w].to_owned() } else { free })
                .collect();
            match Options::parse(args.clone()) {
                Ok(o) => {
                    proptest::prop_assert!(o.bots.iter().all(|(p, l)| *p <= MAX_SEAT && (1..=5).contains(l)), "{args:?}");
                    for players in 1..4 {
                        let _ = o.check_seats(players);
                    }
                }
                Err(e) => proptest::prop_assert!(e.contains(USAGE), "{args:?}: {e}"),
            }
        }
    }

    #[test]
    fn flags_files_and_numbers() {
        let o = parse(&[
            "g.moves",
            "--layout",
            "--screenshot",
            "s.png",
            "--frames",
            "9",
        ])
        .expect("reads");
        assert_eq!(o.file, Some("g.moves".into()));
        assert!(o.layout);
        assert_eq!((o.screenshot, o.frames), (Some("s.png".into()), 9));
        assert!(parse(&["a.ron", "b.ron"]).is_err(), "one file");
        assert!(parse(&["--frames", "-1"]).is_err(), "frames are a count");
        assert!(
            parse(&["--wat"])
                .expect_err("unknown")
                .starts_with("unknown option --wat")
        );
        assert_eq!(parse(&["--help"]).expect_err("help"), USAGE);
    }
}
