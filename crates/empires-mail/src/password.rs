//! The mail password: what a turnsheet sent by email carries in its header to prove that
//! it comes from the player, since a sender's address alone is easy to forge. The host
//! makes it (the player never chooses it), shows it once and keeps only its SHA-256: it is
//! long and random, so a slow hash would add nothing but time.

use empires_host::gamedir::sha256_hex;
use subtle::ConstantTimeEq;

/// Letters and digits that cannot be mistaken for one another when copied by hand.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A new mail password: three groups of four characters (`k7qd-m3xa-9pwe`), some 59 bits.
pub fn issue() -> String {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    let mut out = String::with_capacity(14);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        // 256 is not a multiple of 31: the first 8 letters come up a little more often
        // (9 chances in 256 against 8), which costs under a bit in all.
        out.push(ALPHABET[*b as usize % ALPHABET.len()] as char);
    }
    out
}

/// The hash kept in place of a mail password. Case and the blanks around it do not count,
/// so a password copied by hand still matches.
pub fn hash(password: &str) -> String {
    sha256_hex(password.trim().to_lowercase().as_bytes())
}

/// Whether `password` is the one whose hash is `kept`, compared in constant time.
pub fn verify(password: &str, kept: &str) -> bool {
    hash(password).as_bytes().ct_eq(kept.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_password_verifies_and_another_does_not() {
        let p = issue();
        assert_eq!(p.len(), 14);
        assert!(p.split('-').all(|g| g.len() == 4));
        let kept = hash(&p);
        assert!(verify(&p, &kept));
        assert!(verify(&format!("  {}  ", p.to_uppercase()), &kept));
        assert!(!verify("abcd-efgh-jkmn", &kept));
        assert_ne!(issue(), p);
    }
}
