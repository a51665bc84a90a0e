//! Small pieces of English shared by every message and report: counts with their nouns.

/// "1 army", "3 armies", "1 BP", "2 BPs": a count with its noun, singular or plural.
pub fn count(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 || n == -1 {
        return format!("{n} {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u32, "army"), "1 army");
        assert_eq!(count(3u32, "army"), "3 armies");
        assert_eq!(count(0u32, "army"), "0 armies");
        assert_eq!(count(1u32, "BP"), "1 BP");
        assert_eq!(count(2u32, "BP"), "2 BPs");
        assert_eq!(count(2u32, "day"), "2 days");
        assert_eq!(count(-1i32, "VP"), "-1 VP");
        assert_eq!(count(5u32, "fort level"), "5 fort levels");
    }
}
