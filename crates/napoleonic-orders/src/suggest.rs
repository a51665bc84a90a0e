//! "Did you mean" suggestions for misspelt keywords, locations, kingdoms and troop types.

use napoleonic_rules::Map;
use napoleonic_rules::ids::LocId;

/// Edit distance with adjacent swaps counted as one (optimal string alignment), ignoring
/// case. Words longer than 40 characters are never close to anything.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(41).map(|c| c.to_ascii_uppercase()).collect();
    let b: Vec<char> = b.chars().take(41).map(|c| c.to_ascii_uppercase()).collect();
    if a.len() > 40 || b.len() > 40 {
        return usize::MAX;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

/// How far a word may be from a candidate to be suggested: one slip in a short word, two
/// in a long one.
fn reach(word: &str) -> usize {
    if word.chars().count() <= 4 { 1 } else { 2 }
}

/// Candidates close to a word, best first, at most three.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Vec<String> {
    let limit = reach(word);
    let up = word.to_uppercase();
    let mut found: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let prefix = up.chars().count() >= 3 && c.starts_with(up.as_str()) && c != up;
            let d = if prefix { 0 } else { distance(&up, c) };
            (d <= limit).then_some((d, c))
        })
        .collect();
    found.sort();
    found.dedup();
    found
        .into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// "did you mean X?" or "did you mean X, or Y?"; None when there is nothing to offer.
pub fn did_you_mean(options: &[String]) -> Option<String> {
    if options.is_empty() {
        None
    } else {
        Some(format!("did you mean {}?", options.join(", or ")))
    }
}

/// Locations close to a misspelt code or starting with a written name: "BUR (Burgundy,
/// 12)". Neighbours of `near` come first.
pub fn locations(map: &Map, word: &str, near: Option<LocId>) -> Vec<String> {
    let up = word.to_uppercase();
    let mut found: Vec<(usize, usize, LocId)> = Vec::new();
    for l in &map.locations {
        let by_name = up.chars().count() >= 3 && l.name.to_uppercase().starts_with(&up);
        let d = if by_name { 0 } else { distance(&up, &l.code) };
        if d <= reach(word) {
            let far = near
                .and_then(|n| map.get(n))
                .is_none_or(|n| n.edge(l.id).is_none());
            found.push((d, usize::from(far), l.id));
        }
    }
    found.sort();
    found
        .into_iter()
        .take(3)
        .filter_map(|(_, _, id)| map.get(id))
        .map(|l| format!("{} ({}, {})", l.code, l.name, l.id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_count_as_one_slip() {
        assert_eq!(distance("DECLRAE", "DECLARE"), 1);
        assert_eq!(distance("move", "MOVE"), 0);
        assert_eq!(distance("ABC", "XYZ"), 3);
    }

    #[test]
    fn close_keywords_are_offered() {
        let kws = ["MOVE", "HOLD", "PILLAGE", "TRANSFER"];
        assert_eq!(closest("MOEV", kws), vec!["MOVE"]);
        assert_eq!(closest("PILAGE", kws), vec!["PILLAGE"]);
        assert_eq!(closest("TRANS", kws), vec!["TRANSFER"]);
        assert!(closest("XYZZY", kws).is_empty());
    }
}
