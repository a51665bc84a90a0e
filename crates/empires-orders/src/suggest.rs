//! "Did you mean" suggestions for misspelt actions, area codes and empire codes.

use empires_rules::map::{AreaId, Map};
use empires_rules::order::Verb;
use empires_rules::state::GameState;

/// Edit distance with adjacent transpositions (optimal string alignment), case-insensitive.
pub fn distance(a: &str, b: &str) -> usize {
    // Every misspelt word is compared with every action, area or empire code, and words are
    // short: they and the table are kept on the stack when they fit.
    const FIT: usize = 16;
    let (mut a_chars, mut b_chars) = (['\0'; FIT], ['\0'; FIT]);
    match (upper_chars(a, &mut a_chars), upper_chars(b, &mut b_chars)) {
        (Some(a), Some(b)) => alignment(a, b, &mut [0; 3 * (FIT + 1)]),
        _ => {
            let upper =
                |s: &str| -> Vec<char> { s.chars().map(|c| c.to_ascii_uppercase()).collect() };
            let (a, b) = (upper(a), upper(b));
            alignment(&a, &b, &mut vec![0; 3 * (b.len() + 1)])
        }
    }
}

/// The characters of `s`, upper-cased, in `buffer` if they fit.
fn upper_chars<'b>(s: &str, buffer: &'b mut [char]) -> Option<&'b [char]> {
    let mut n = 0;
    for c in s.chars() {
        *buffer.get_mut(n)? = c.to_ascii_uppercase();
        n += 1;
    }
    Some(&buffer[..n])
}

/// The optimal string alignment distance of `a` and `b`, with room in `rows` for three rows
/// of the table: each row looks back at the two before it only.
fn alignment(a: &[char], b: &[char], rows: &mut [usize]) -> usize {
    let w = b.len() + 1;
    let (mut before, rest) = rows.split_at_mut(w);
    let (mut last, rest) = rest.split_at_mut(w);
    let mut row = &mut rest[..w];
    for (j, cell) in last.iter_mut().enumerate() {
        *cell = j;
    }
    for (i, &x) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, &y) in b.iter().enumerate() {
            let cost = usize::from(x != y);
            let mut best = (last[j + 1] + 1).min(row[j] + 1).min(last[j] + cost);
            if i > 0 && j > 0 && x == b[j - 1] && a[i - 1] == y {
                best = best.min(before[j - 1] + 1);
            }
            row[j + 1] = best;
        }
        (before, last, row) = (last, row, before);
    }
    last[b.len()]
}

/// Actions close to a misspelt word, best first.
pub fn verbs(word: &str) -> Vec<String> {
    let up = word.to_ascii_uppercase();
    let limit = if up.len() <= 4 { 1 } else { 2 };
    let mut found: Vec<(usize, &str)> = Verb::ALL
        .iter()
        .map(|v| v.name())
        .filter_map(|n| {
            let d = distance(&up, n);
            let prefix = up.len() >= 3 && n.starts_with(&up);
            (d <= limit || prefix).then_some((if prefix { 0 } else { d }, n))
        })
        .collect();
    found.sort();
    found
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_string())
        .collect()
}

/// Area codes close to a misspelt one: the neighbours of `near` first, then the rest of the
/// map, each with its name; a word matching an area's name also finds it. Among the areas
/// `likely` accepts (the empire's own, say) a code two letters off is close enough.
pub fn areas(
    map: &Map,
    word: &str,
    near: Option<AreaId>,
    likely: impl Fn(AreaId) -> bool,
) -> Vec<String> {
    let up = word.to_ascii_uppercase();
    let mut found: Vec<(usize, usize, AreaId)> = Vec::new();
    for id in map.ids() {
        let a = map.area(id);
        let by_code = distance(&up, a.code.as_str());
        let by_name = a.name.to_ascii_uppercase().starts_with(&up) && up.len() >= 3;
        let d = if by_name { 0 } else { by_code };
        let neighbour = near.is_some_and(|n| map.adjacent(n, id));
        let reach = if neighbour || likely(id) { 2 } else { 1 };
        if d <= reach {
            found.push((usize::from(!neighbour), d, id));
        }
    }
    found.sort_by_key(|&(far, d, id)| (d, far, id));
    found
        .into_iter()
        .take(3)
        .map(|(far, _, id)| {
            let a = map.area(id);
            match (far, near) {
                (0, Some(n)) => format!("{} ({}, next to {})", a.code, a.name, map.code(n)),
                _ => format!("{} ({})", a.code, a.name),
            }
        })
        .collect()
}

/// Empire codes close to a misspelt one, or whose name starts with the word.
pub fn empires(st: &GameState, word: &str) -> Vec<String> {
    let up = word.to_ascii_uppercase();
    let mut found: Vec<(usize, String)> = st
        .empires
        .iter()
        .filter_map(|e| {
            let by_name = up.len() >= 3 && e.name.to_ascii_uppercase().starts_with(&up);
            let d = if by_name {
                0
            } else {
                distance(&up, e.code.as_str())
            };
            (d <= 1).then(|| (d, format!("{} ({})", e.code, e.name)))
        })
        .collect();
    found.sort();
    found.into_iter().take(3).map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_swaps_as_one() {
        assert_eq!(distance("ATTACK", "ATACK"), 1);
        assert_eq!(distance("MOVE", "MVOE"), 1);
        assert_eq!(distance("par", "PAR"), 0);
        assert_eq!(distance("ABC", "XYZ"), 3);
    }

    #[test]
    fn misspelt_verbs_find_their_action() {
        assert_eq!(verbs("ATACK"), vec!["ATTACK"]);
        assert_eq!(verbs("fortfy"), vec!["FORTIFY"]);
        assert_eq!(verbs("MOBILIZ")[0], "MOBILISE");
        assert!(verbs("XYZZY").is_empty());
    }
}
