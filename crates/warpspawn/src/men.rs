//! Men by kind and the part of a hex that marches (R69-R71): the values
//! the battle's state, its commands and the off-board grid's counters all
//! count with.

use std::fmt;

/// Men by kind: infantry and cavalry.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Men {
    /// Infantry.
    pub inf: u16,
    /// Cavalry.
    pub cav: u16,
}

impl Men {
    /// No men.
    pub const NONE: Men = Men { inf: 0, cav: 0 };

    /// Infantry and cavalry counts.
    pub const fn new(inf: u16, cav: u16) -> Men {
        Men { inf, cav }
    }

    /// Men of both kinds.
    pub const fn total(self) -> u16 {
        self.inf + self.cav
    }

    /// Whether there are none.
    pub const fn is_empty(self) -> bool {
        (self.inf | self.cav) == 0
    }

    /// Both counts added.
    pub const fn plus(self, other: Men) -> Men {
        Men::new(self.inf + other.inf, self.cav + other.cav)
    }

    /// Both counts taken away; `None` when either would go below 0.
    pub fn minus(self, other: Men) -> Option<Men> {
        Some(Men::new(
            self.inf.checked_sub(other.inf)?,
            self.cav.checked_sub(other.cav)?,
        ))
    }

    /// Whether each kind holds at least `other`'s count.
    pub fn covers(self, other: Men) -> bool {
        self.inf >= other.inf && self.cav >= other.cav
    }

    /// The first `n` of them, infantry first.
    pub fn take_infantry_first(self, n: u16) -> Men {
        let inf = n.min(self.inf);
        Men::new(inf, (n - inf).min(self.cav))
    }
}

impl fmt::Display for Men {
    /// `inf 2 cav 1`, leaving out a kind with none; `none` for no men.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.inf, self.cav) {
            (0, 0) => f.write_str("none"),
            (i, 0) => write!(f, "inf {i}"),
            (0, c) => write!(f, "cav {c}"),
            (i, c) => write!(f, "inf {i} cav {c}"),
        }
    }
}

/// What part of a hex marches (R69-R71): men by kind, officers, the
/// cannon, baggage, flag, prisoners and unarmed men.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Pick {
    /// Armed men.
    pub men: Men,
    /// Officers.
    pub officers: u16,
    /// The cannon.
    pub cannon: bool,
    /// The baggage.
    pub baggage: bool,
    /// The flag.
    pub flag: bool,
    /// Prisoners held, infantry taken first.
    pub prisoners: u16,
    /// Unarmed men, infantry taken first.
    pub unarmed: u16,
}

impl Pick {
    /// Whether nothing is picked.
    pub fn is_empty(&self) -> bool {
        *self == Pick::default()
    }
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        if self.men.inf > 0 {
            words.push(format!("inf {}", self.men.inf));
        }
        if self.men.cav > 0 {
            words.push(format!("cav {}", self.men.cav));
        }
        if self.officers > 0 {
            words.push(format!("officer {}", self.officers));
        }
        if self.cannon {
            words.push("cannon".into());
        }
        if self.baggage {
            words.push("baggage".into());
        }
        if self.flag {
            words.push("flag".into());
        }
        if self.prisoners > 0 {
            words.push(format!("prisoners {}", self.prisoners));
        }
        if self.unarmed > 0 {
            words.push(format!("unarmed {}", self.unarmed));
        }
        f.write_str(&words.join(" "))
    }
}
