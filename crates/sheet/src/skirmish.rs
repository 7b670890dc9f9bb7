//! A Frontiers skirmish on paper: its open table at 1:1 with the terrain
//! pieces by kind (a colour and a letter, for black-and-white prints),
//! the building elements with their walls, doors, windows and numbered
//! spaces, the deployment strips, crates, objectives and the diskette,
//! and every unit's base in its side's colour with its side's letter;
//! then the listing with every position measured from the table's left
//! and near edges, and a page of play aids at true size: the ruler, the
//! templates, a smoke cloud and each base's outline (R100, R101, R126,
//! R130).

use sandtable_core::game::{Spot, Surface};
use sandtable_frontiers::data::{Base, unit_data};
use sandtable_frontiers::geometry::{Footprint, Pt};
use sandtable_frontiers::setup::{OpeningKind, Setup, TerrainKind, footprint};
use sandtable_scenario::skirmish::Skirmish;

use crate::{
    AidPage, Cell, Contents, Laid, Mark, Paint, Paper, PlanSheetError, Rgbf, Sheet, words,
};

/// Segments of a circle on paper: a 90 mm circle's chords then miss its
/// arc by under 0.01 mm.
const CIRCLE_SEGMENTS: usize = 180;

/// Plans the sheet of a skirmish: its table at its real size (R100),
/// tiled as [`crate::plan`] does, the listing, then the play aids.
pub fn plan_skirmish(skirmish: &Skirmish, paper: Paper) -> Result<Sheet, PlanSheetError> {
    let setup = skirmish.setup.clone();
    let (w, d) = setup.table;
    let laid = Laid::new(
        Surface::Plane {
            width_mm: w,
            depth_mm: d,
        },
        0.0,
        (f64::from(w), f64::from(d)),
    );
    let names: Vec<String> = setup.sides.iter().map(|s| s.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let colours = sandtable_scenario::DEFAULT_COLOURS[..setup.sides.len().min(2)].to_vec();
    let models = crate::model_lines(&skirmish.models);
    crate::plan_surface(
        skirmish.name.clone(),
        laid,
        &names,
        &colours,
        OpenTable { setup, models },
        paper,
    )
}

/// A skirmish's open table, for [`plan_skirmish`].
#[derive(Debug)]
struct OpenTable {
    setup: Setup,
    /// The listing's lines for the scenario's own models.
    models: Vec<String>,
}

/// A terrain's colour on paper and the letter it is marked with.
pub fn terrain_paint(kind: TerrainKind) -> (Rgbf, &'static str) {
    match kind {
        TerrainKind::Vegetation => ([0.55, 0.78, 0.5], "V vegetation"),
        TerrainKind::Hill => ([0.85, 0.78, 0.6], "H hill"),
        TerrainKind::LightStructure => ([0.78, 0.78, 0.78], "L light structure"),
        TerrainKind::Crater => ([0.7, 0.62, 0.55], "C crater"),
    }
}

fn pt(p: Pt) -> (f64, f64) {
    (f64::from(p.x), f64::from(p.y))
}

/// A circle of `diameter` mm about `c`, as a polygon.
fn circle(c: (f64, f64), diameter: f64) -> Vec<(f64, f64)> {
    let r = diameter / 2.0;
    (0..CIRCLE_SEGMENTS)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / CIRCLE_SEGMENTS as f64;
            (c.0 + r * a.cos(), c.1 + r * a.sin())
        })
        .collect()
}

/// A unit's base outline: a disc, or an oval's stadium along its facing.
fn outline(f: &Footprint) -> Vec<(f64, f64)> {
    match *f {
        Footprint::Disc { centre, diameter } => circle(pt(centre), f64::from(diameter)),
        Footprint::Stadium { facing, .. } => {
            // The rules' own shape: its axis's two ends, and its radius.
            let shape = f.shape();
            let (r, turn) = (shape.radius, f64::from(facing).to_radians());
            let n = CIRCLE_SEGMENTS / 2;
            let mut points = Vec::with_capacity(2 * n + 2);
            // Each end's half circle, the front one first.
            for (end, from) in [(shape.core[1], -90.0f64), (shape.core[0], 90.0)] {
                for k in 0..=n {
                    let a = turn + (from + 180.0 * k as f64 / n as f64).to_radians();
                    points.push((end.x + r * a.cos(), end.y + r * a.sin()));
                }
            }
            points
        }
        Footprint::Polygon(ref corners) => corners.iter().map(|p| pt(*p)).collect(),
    }
}

/// The parts of the wall from `a` to `b` left standing between the
/// openings that lie along it.
fn walls_between(
    a: (f64, f64),
    b: (f64, f64),
    openings: &[sandtable_frontiers::setup::Opening],
) -> Vec<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return Vec::new();
    }
    // Where along the side (0 to 1) a point lies, if it lies on it.
    let along = |p: (f64, f64)| {
        let t = ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2;
        let (qx, qy) = (a.0 + t * dx, a.1 + t * dy);
        ((p.0 - qx).hypot(p.1 - qy) < 0.5 && (-1e-9..=1.0 + 1e-9).contains(&t)).then_some(t)
    };
    let mut gaps: Vec<(f64, f64)> = openings
        .iter()
        .filter_map(|o| {
            let (s, t) = (along(pt(o.a))?, along(pt(o.b))?);
            Some((s.min(t), s.max(t)))
        })
        .collect();
    gaps.sort_by(|x, y| x.0.total_cmp(&y.0));
    let at = |t: f64| (a.0 + t * dx, a.1 + t * dy);
    let mut parts = Vec::new();
    let mut from = 0.0;
    for (s, t) in gaps {
        if s > from {
            parts.push((at(from), at(s)));
        }
        from = from.max(t);
    }
    if from < 1.0 {
        parts.push((at(from), at(1.0)));
    }
    parts
}

/// Whether a mark's box meets the area.
fn meets(bounds: (f64, f64, f64, f64), area: (f64, f64, f64, f64)) -> bool {
    !(bounds.2 < area.0 || bounds.0 > area.2 || bounds.3 < area.1 || bounds.1 > area.3)
}

impl OpenTable {
    /// The deployment strip of each side that has units to deploy: the
    /// scenario's zone (`deploy_mm`), else the depth of its largest base
    /// and the contact distance along its edge (R146).
    fn strips(&self) -> Vec<(u8, (f64, f64, f64, f64))> {
        let (w, d) = (f64::from(self.setup.table.0), f64::from(self.setup.table.1));
        self.setup
            .deploy_strips()
            .into_iter()
            .map(|(side, depth)| {
                let depth = f64::from(depth);
                let y0 = if side == 0 { 0.0 } else { d - depth };
                (side, (0.0, y0, w, y0 + depth))
            })
            .collect()
    }
}

impl Contents for OpenTable {
    fn name(&self, _: Spot) -> String {
        String::new()
    }

    fn over_all(
        &self,
        area: (f64, f64, f64, f64),
        _: &dyn Fn(Spot) -> bool,
        paint: &Paint,
        marks: &mut Vec<Mark>,
    ) {
        let setup = &self.setup;
        let push = |mark: Mark, marks: &mut Vec<Mark>| {
            if meets(mark.bounds(), area) {
                marks.push(mark);
            }
        };
        for (side, (x0, y0, x1, y1)) in self.strips() {
            let [r, g, b] = paint.colour(usize::from(side));
            push(
                Mark::Rect {
                    x: x0,
                    y: y0,
                    w: x1 - x0,
                    h: y1 - y0,
                    fill: Some([0.75 + r * 0.25, 0.75 + g * 0.25, 0.75 + b * 0.25]),
                    stroke: Some(0.2),
                },
                marks,
            );
            push(
                words(
                    x0 + 5.0,
                    y0 + 3.0,
                    7.0,
                    format!(
                        "{} {} deploys here (R146)",
                        paint.letter(usize::from(side)),
                        setup.sides[usize::from(side)].name
                    ),
                ),
                marks,
            );
        }
        for t in &setup.terrain {
            let (fill, kind) = terrain_paint(t.kind);
            let points: Vec<(f64, f64)> = t.corners.iter().map(|p| pt(*p)).collect();
            let first = points.first().copied().unwrap_or_default();
            push(
                Mark::Polygon {
                    points,
                    fill: Some(fill),
                    stroke: Some(0.3),
                },
                marks,
            );
            push(words(first.0 + 2.0, first.1 + 2.0, 6.0, kind), marks);
        }
        for (e, el) in setup.elements.iter().enumerate() {
            let id = sandtable_frontiers::setup::element_id(&setup.elements, e);
            let points: Vec<(f64, f64)> = el.corners.iter().map(|p| pt(*p)).collect();
            push(
                Mark::Polygon {
                    points,
                    fill: Some([0.92, 0.9, 0.86]),
                    stroke: None,
                },
                marks,
            );
            // Its walls, thick, broken where a door or a window is (R117).
            let n = el.corners.len();
            for k in 0..n {
                let (a, b) = (pt(el.corners[k]), pt(el.corners[(k + 1) % n]));
                for (from, to) in walls_between(a, b, &el.openings) {
                    push(
                        Mark::Line {
                            from,
                            to,
                            width: 1.2,
                        },
                        marks,
                    );
                }
            }
            let mut windows = 0;
            for o in &el.openings {
                let (a, b) = (pt(o.a), pt(o.b));
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                let text = match o.kind {
                    OpeningKind::Door => "door".to_owned(),
                    // A window: a thin line across the gap, numbered as
                    // commands name it (`RH.w1`).
                    OpeningKind::Window => {
                        windows += 1;
                        push(
                            Mark::Line {
                                from: a,
                                to: b,
                                width: 0.25,
                            },
                            marks,
                        );
                        format!("{id}.w{windows}")
                    }
                };
                push(words(mid.0 + 2.0, mid.1 + 2.0, 5.0, text), marks);
            }
            for (k, s) in el.spaces.iter().enumerate() {
                let c = pt(*s);
                push(
                    Mark::Polygon {
                        points: circle(c, f64::from(sandtable_frontiers::setup::SPACE_MM)),
                        fill: None,
                        stroke: Some(0.15),
                    },
                    marks,
                );
                push(
                    words(c.0 - 5.0, c.1 - 1.5, 5.0, format!("{id}.{}", k + 1)),
                    marks,
                );
            }
            if let Some(c) = el.corners.first() {
                push(
                    words(
                        f64::from(c.x) + 2.0,
                        f64::from(c.y) - 4.0,
                        6.0,
                        format!("{id} {}", el.name),
                    ),
                    marks,
                );
            }
        }
        let disc = f64::from(sandtable_frontiers::crates::CRATE_MM);
        for (k, c) in setup.crates.iter().enumerate() {
            let c = pt(*c);
            push(
                Mark::Rect {
                    x: c.0 - disc / 2.0,
                    y: c.1 - disc / 2.0,
                    w: disc,
                    h: disc,
                    fill: Some([0.8, 0.65, 0.45]),
                    stroke: Some(0.3),
                },
                marks,
            );
            push(
                words(c.0 - 4.0, c.1 - 1.5, 5.0, format!("crate {}", k + 1)),
                marks,
            );
        }
        let objective = f64::from(sandtable_frontiers::crates::DISC_MM);
        let tokens = setup
            .objectives
            .iter()
            .enumerate()
            .map(|(k, p)| (*p, format!("objective {}", k + 1)))
            .chain(setup.diskette.map(|p| (p, "diskette".to_owned())));
        for (p, name) in tokens {
            let c = pt(p);
            push(
                Mark::Polygon {
                    points: circle(c, objective),
                    fill: Some([0.95, 0.85, 0.4]),
                    stroke: Some(0.3),
                },
                marks,
            );
            push(words(c.0 - 6.0, c.1 - 1.5, 5.0, name), marks);
        }
        for u in &setup.units {
            let Some(data) = unit_data(&u.data) else {
                continue;
            };
            if u.deploy {
                continue;
            }
            let side = usize::from(u.side);
            push(
                Mark::Polygon {
                    points: outline(&footprint(data, u.at, u.facing)),
                    fill: Some(paint.colour(side)),
                    stroke: Some(0.3),
                },
                marks,
            );
            // An oval's front: a line from its centre along its facing.
            if data.base == Base::Oval {
                let turn = f64::from(u.facing).to_radians();
                let c = pt(u.at);
                let reach = f64::from(data.base.size_mm().0) / 2.0;
                push(
                    Mark::Line {
                        from: c,
                        to: (c.0 + reach * turn.cos(), c.1 + reach * turn.sin()),
                        width: 0.5,
                    },
                    marks,
                );
            }
            push(
                words(
                    f64::from(u.at.x) - 5.0,
                    f64::from(u.at.y) - 1.5,
                    6.0,
                    format!("{} {}", paint.letter(side), u.id),
                ),
                marks,
            );
        }
    }

    fn over_name(&self, _: &Cell, _: &Paint, _: &mut Vec<Mark>) {}

    fn listing_len(&self) -> usize {
        let s = &self.setup;
        let openings: usize = s.elements.iter().map(|e| e.openings.len()).sum();
        // A line each, and the headings.
        8 + s.terrain.len()
            + s.elements.len()
            + openings
            + s.units.len()
            + s.crates.len()
            + s.objectives.len()
            + 1
            + self.models.len()
    }

    fn listing(&self, paint: &Paint) -> Vec<String> {
        let s = &self.setup;
        let corners = |c: &[Pt]| {
            c.iter()
                .map(|p| format!("({}, {})", p.x, p.y))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut lines = Vec::new();
        lines.push("Units: the centre of each base, mm from the left and near edges".to_owned());
        for u in &s.units {
            let side = usize::from(u.side);
            let data = unit_data(&u.data);
            let ap = data.map_or(0, |d| d.ap);
            let place = if u.deploy {
                "deploys before the first turn (R146)".to_owned()
            } else if data.is_some_and(|d| d.base == Base::Oval) {
                format!("at {}, {} facing {} degrees", u.at.x, u.at.y, u.facing)
            } else {
                format!("at {}, {}", u.at.x, u.at.y)
            };
            lines.push(format!(
                "  {} {} ({}): {}, {ap} AP, {place}",
                paint.letter(side),
                u.id,
                s.sides[side].name,
                u.data
            ));
        }
        if !s.terrain.is_empty() {
            lines.push("Terrain: corners, mm from the left and near edges".to_owned());
            for (k, t) in s.terrain.iter().enumerate() {
                lines.push(format!(
                    "  {} {}: {}",
                    k + 1,
                    terrain_paint(t.kind).1,
                    corners(&t.corners)
                ));
            }
        }
        if !s.elements.is_empty() {
            lines.push("Buildings: corners, doors and windows (R117)".to_owned());
            for (e, el) in s.elements.iter().enumerate() {
                let id = sandtable_frontiers::setup::element_id(&s.elements, e);
                lines.push(format!(
                    "  {id} {}: defense {}, {} steps, corners {}",
                    el.name,
                    el.defense,
                    el.steps,
                    corners(&el.corners)
                ));
                let mut windows = 0;
                for o in &el.openings {
                    let what = match o.kind {
                        OpeningKind::Door => "door".to_owned(),
                        OpeningKind::Window => {
                            windows += 1;
                            format!("window {id}.w{windows}")
                        }
                    };
                    lines.push(format!(
                        "    {what} from ({}, {}) to ({}, {})",
                        o.a.x, o.a.y, o.b.x, o.b.y
                    ));
                }
            }
        }
        if !s.crates.is_empty() || !s.objectives.is_empty() || s.diskette.is_some() {
            lines.push("Crates, objectives and the diskette: their centres".to_owned());
            for (k, c) in s.crates.iter().enumerate() {
                lines.push(format!("  crate {} at {}, {}", k + 1, c.x, c.y));
            }
            for (k, c) in s.objectives.iter().enumerate() {
                lines.push(format!("  objective {} at {}, {}", k + 1, c.x, c.y));
            }
            if let Some(c) = s.diskette {
                lines.push(format!("  the diskette at {}, {}", c.x, c.y));
            }
        }
        for (side, (_, y0, _, y1)) in self.strips() {
            lines.push(format!(
                "{} {} deploys from {y0:.0} to {y1:.0} mm from the near edge (R146)",
                paint.letter(usize::from(side)),
                s.sides[usize::from(side)].name
            ));
        }
        lines.extend(self.models.iter().cloned());
        lines
    }

    fn aids(&self, printable: (f64, f64)) -> Vec<AidPage> {
        play_aids(&self.setup, printable)
    }
}

/// A round play aid: its size (length and width, mm), its outline about
/// its centre, and its words.
type Aid = ((u16, u16), Vec<(f64, f64)>, String);

/// The play aids at true size, on as many pages as they take (one for the
/// shipped tables): the ruler of the scenario's length in LNS, marked each
/// LNS (R102); the small and large templates (R126); a smoke cloud
/// (R130); and each base's outline (R101), every mark measured in the
/// table's millimetres from the printable area's lower-left corner.
pub fn play_aids(setup: &Setup, printable: (f64, f64)) -> Vec<AidPage> {
    let lns = f64::from(setup.switches.lns_mm);
    let ruler = lns * f64::from(setup.switches.ruler_lns);
    let mut marks = Vec::new();
    // The ruler along the longer side of the printable area, 12 mm wide.
    let along_x = printable.0 >= printable.1;
    let length_room = if along_x { printable.0 } else { printable.1 };
    let ruler = ruler.min(length_room - 4.0);
    let place = |a: f64, b: f64| if along_x { (2.0 + a, b) } else { (b, 2.0 + a) };
    let (r0, r1) = (place(0.0, 2.0), place(ruler, 14.0));
    marks.push(Mark::Polygon {
        points: vec![r0, place(ruler, 2.0), r1, place(0.0, 14.0)],
        fill: None,
        stroke: Some(0.25),
    });
    let steps = (ruler / lns * 2.0).floor() as usize;
    for k in 0..=steps {
        let at = lns * k as f64 / 2.0;
        let tick = if k % 2 == 0 { 6.0 } else { 3.0 };
        marks.push(Mark::Line {
            from: place(at, 2.0),
            to: place(at, 2.0 + tick),
            width: 0.2,
        });
        if k % 2 == 0 && k > 0 {
            let (x, y) = place(at - 1.5, 9.5);
            marks.push(words(x, y, 6.0, (k / 2).to_string()));
        }
    }
    let (x, y) = place(0.0, 17.0);
    marks.push(words(
        x,
        y,
        7.0,
        format!(
            "ruler: {} LNS of {lns:.0} mm = {:.0} mm (R102)",
            (ruler / lns).round(),
            ruler
        ),
    ));
    // The round aids side by side below (or beside) the ruler, each
    // shape once (the large template and the cloud are one size), the
    // largest first.
    let mut aids: Vec<Aid> = Vec::new();
    let mut add = |size: (u16, u16), shape: Vec<(f64, f64)>, words: String| match aids
        .iter_mut()
        .find(|a| a.0 == size)
    {
        Some(same) => {
            same.2.push_str("; ");
            same.2.push_str(&words);
        }
        None => aids.push((size, shape, words)),
    };
    let mut round = |d: u16, words: String| {
        add((d, d), circle((0.0, 0.0), f64::from(d)), words);
    };
    round(
        sandtable_frontiers::templates::SMALL_MM,
        format!(
            "small template, {} mm (R126)",
            sandtable_frontiers::templates::SMALL_MM
        ),
    );
    round(
        sandtable_frontiers::templates::LARGE_MM,
        format!(
            "large template, {} mm (R126)",
            sandtable_frontiers::templates::LARGE_MM
        ),
    );
    round(
        sandtable_frontiers::smoke::CLOUD_MM,
        format!(
            "smoke cloud, {} mm (R130)",
            sandtable_frontiers::smoke::CLOUD_MM
        ),
    );
    let mut bases: Vec<Base> = setup
        .units
        .iter()
        .filter_map(|u| unit_data(&u.data).map(|d| d.base))
        .collect();
    for b in [Base::Round, Base::Small, Base::Oval] {
        if !bases.contains(&b) {
            bases.push(b);
        }
    }
    bases.sort_by_key(|b| b.size_mm());
    bases.dedup();
    for b in bases {
        let (l, w) = b.size_mm();
        let words = match b {
            Base::Oval => format!("oval base, {l} x {w} mm (R101)"),
            _ => format!("round base, {l} mm (R101)"),
        };
        let shape = outline(&Footprint::Stadium {
            centre: Pt::new(0, 0),
            length: l,
            width: w,
            facing: 0,
        });
        let shape = if l == w {
            circle((0.0, 0.0), f64::from(l))
        } else {
            shape
        };
        add((l, w), shape, words);
    }
    aids.sort_by_key(|a| std::cmp::Reverse(a.0));
    // Laid in rows across the page, from the ruler's far side.
    let start = if along_x { (2.0, 30.0) } else { (30.0, 2.0) };
    let (mut x, mut y, mut row) = (start.0, start.1, 0.0f64);
    let mut pages = Vec::new();
    for ((size, _), shape, label) in aids {
        let size = f64::from(size);
        let room = size.max(55.0) + 6.0;
        if x + room > printable.0 {
            x = start.0;
            y += row + 12.0;
            row = 0.0;
        }
        if y + size + 10.0 > printable.1 {
            pages.push(AidPage {
                marks: std::mem::take(&mut marks),
            });
            (x, y, row) = (2.0, 2.0, 0.0);
        }
        let c = (x + size / 2.0, y + size / 2.0 + 8.0);
        marks.push(Mark::Polygon {
            points: shape.iter().map(|p| (p.0 + c.0, p.1 + c.1)).collect(),
            fill: None,
            stroke: Some(0.25),
        });
        // Its centre, crossed.
        marks.push(Mark::Line {
            from: (c.0 - 2.0, c.1),
            to: (c.0 + 2.0, c.1),
            width: 0.15,
        });
        marks.push(Mark::Line {
            from: (c.0, c.1 - 2.0),
            to: (c.0, c.1 + 2.0),
            width: 0.15,
        });
        marks.push(words(x, y, 6.0, label));
        x += room;
        row = row.max(size + 8.0);
    }
    pages.push(AidPage { marks });
    pages
}
