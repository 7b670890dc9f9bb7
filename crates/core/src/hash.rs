//! The state hash's mixer, shared by every rule system: each word is folded
//! in with a multiply by an odd constant and a shift, so that every bit of it
//! reaches the high and the low bits of the hash; the finish spreads the
//! last word the same way. The same on every platform and build; bots hash
//! every position they search, so it is kept cheap.

/// A running hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mix(pub u64);

impl Mix {
    /// A hash started from FNV's offset basis.
    pub const fn new() -> Mix {
        Mix(0xcbf2_9ce4_8422_2325)
    }

    /// Folds in a word.
    pub fn u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 29;
    }

    /// Folds in a 128-bit word, low half first.
    pub fn u128(&mut self, v: u128) {
        self.u64(v as u64);
        self.u64((v >> 64) as u64);
    }

    /// The hash.
    pub fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 32)
    }
}

impl Default for Mix {
    fn default() -> Mix {
        Mix::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_changes_the_hash_and_the_order_counts() {
        let hash = |words: &[u64]| {
            let mut h = Mix::new();
            for w in words {
                h.u64(*w);
            }
            h.finish()
        };
        assert_ne!(hash(&[1, 2]), hash(&[2, 1]));
        assert_ne!(hash(&[1]), hash(&[1, 0]));
        assert_eq!(hash(&[7, 9]), hash(&[7, 9]));
    }
}
