//! A game's one source of randomness: a seeded ChaCha stream whose position is saved with
//! the game, so that re-running a turn draws exactly the same numbers (decision 4).

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The saved form of the generator: seed, stream and position in the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngState {
    /// The 32-byte seed in hexadecimal.
    pub seed: String,
    pub stream: u64,
    /// Position in the key stream, counted in 32-bit words.
    pub word_pos: u64,
}

/// A live generator built from an [`RngState`].
pub struct GameRng {
    inner: ChaCha20Rng,
}

impl GameRng {
    /// A generator for a game created with a numeric seed.
    pub fn from_game_seed(seed: u64) -> GameRng {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        bytes[8..16].copy_from_slice(b"empires!");
        GameRng {
            inner: ChaCha20Rng::from_seed(bytes),
        }
    }

    pub fn restore(state: &RngState) -> Result<GameRng, String> {
        let hex = state.seed.trim();
        if hex.len() != 64 || !hex.is_ascii() {
            return Err(format!(
                "rng seed must be 64 hex digits, found {}",
                hex.len()
            ));
        }
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                .map_err(|_| format!("rng seed is not hexadecimal: {hex}"))?;
        }
        let mut inner = ChaCha20Rng::from_seed(bytes);
        inner.set_stream(state.stream);
        inner.set_word_pos(state.word_pos as u128);
        Ok(GameRng { inner })
    }

    pub fn save(&self) -> RngState {
        let seed = self.inner.get_seed();
        let mut hex = String::with_capacity(64);
        for b in seed {
            hex.push_str(&format!("{b:02x}"));
        }
        RngState {
            seed: hex,
            stream: self.inner.get_stream(),
            word_pos: self.inner.get_word_pos() as u64,
        }
    }

    /// A uniform draw from `lo..=hi`, without modulo bias.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u64 + 1;
        let zone = u64::MAX - (u64::MAX % span);
        loop {
            let v = self.inner.next_u64();
            if v < zone {
                return lo + (v % span) as u32;
            }
        }
    }

    /// A uniform index into a slice of length `len` (> 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.range(0, len.saturating_sub(1) as u32) as usize
    }

    /// Shuffles a slice in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.range(0, i as u32) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_generator_continues_the_same_stream() {
        let mut a = GameRng::from_game_seed(7);
        for _ in 0..5 {
            a.range(0, 100);
        }
        let mut b = GameRng::restore(&a.save()).unwrap();
        let xs: Vec<u32> = (0..20).map(|_| a.range(1, 6)).collect();
        let ys: Vec<u32> = (0..20).map(|_| b.range(1, 6)).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn ranges_stay_inside_bounds_and_cover_them() {
        let mut r = GameRng::from_game_seed(1);
        let mut seen = [false; 3];
        for _ in 0..200 {
            let v = r.range(3, 5);
            assert!((3..=5).contains(&v));
            seen[(v - 3) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn a_bad_seed_is_an_error_not_a_panic() {
        let bad = RngState {
            seed: "zz".into(),
            stream: 0,
            word_pos: 0,
        };
        assert!(GameRng::restore(&bad).is_err());
    }
}
