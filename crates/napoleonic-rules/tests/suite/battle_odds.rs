//! The stated chances, measured (digest 4.2-4.6, 7.5, 9.3 T4, T14, T35, T36, T45; decisions
//! G14, G19, G20, G22, G32, G33). Each test runs the real engine with the game's own seeded
//! generator over many fixed seeds, counts how often the event happened, and checks the
//! frequency against the chance the rules state: within 5 standard deviations of the
//! binomial around it, and more than 5 standard deviations away from the nearest plausible
//! wrong reading (the chance without the leader's bonus, say). The seeds are fixed, so the
//! counts are the same at every run; nothing is timed.
//!
//! Where an example states the draws (the hits of T35), they are forced with `Scripted`,
//! and only the draw the example gives as a chance is left to the seed.

use crate::battle_support::*;
use crate::moves_support::*;
use empires_dice::GameRng;
use napoleonic_rules::Fixed;
use napoleonic_rules::battle::engine::{Battle, Setup};
use napoleonic_rules::battle::report::Who;
use napoleonic_rules::battle::{BattleKind, BattleReport, Draw, Scripted};
use napoleonic_rules::event::{MoveStep, What};
use napoleonic_rules::ids::LocId;
use napoleonic_rules::state::{GameState, Leader, Unit};
use napoleonic_rules::tables::Tables;

// ---------------------------------------------------------------------------------------
// Counting.

/// Checks `k` successes in `n` trials against the stated chance `p`: within 5 standard
/// deviations of it, and more than 5 standard deviations (of each) from every `wrong`
/// chance, so that a test that passes has also told the rule from its likely mistakes.
fn assert_chance(what: &str, k: u64, n: u64, p: f64, wrong: &[f64]) {
    assert!(n >= 500, "{what}: only {n} trials");
    let q = k as f64 / n as f64;
    let sd = |x: f64| (x * (1.0 - x) / n as f64).sqrt().max(1.0 / n as f64);
    assert!(
        (q - p).abs() <= 5.0 * sd(p),
        "{what}: {k} of {n} is {q:.4}, more than 5 sd ({:.4}) from the stated {p:.4}",
        sd(p)
    );
    for w in wrong {
        assert!(
            (q - w).abs() > 5.0 * sd(*w),
            "{what}: {k} of {n} ({q:.4}) cannot tell the stated {p:.4} from {w:.4}"
        );
    }
}

/// A generator as the game seeds it.
fn rng(seed: u64) -> GameRng {
    GameRng::from_game_seed(seed)
}

/// The state with its generator seeded afresh.
fn reseeded(s: &GameState, seed: u64) -> GameState {
    let mut s = s.clone();
    s.rng = rng(seed).save();
    s
}

// ---------------------------------------------------------------------------------------
// Battles built by hand.

/// Extra troops: sappers of siege power 30 (T4); a wall of hit points that never attacks
/// and never falls, on land and at sea, to take blows while they are counted; a sure
/// shot; the Old Guard for the cap; the rulebook's Elephant Rider and Dwarf Militia (T35).
const EXTRA: &str = r#"
[[troop]]
code = "SAP"
name = "Sappers"
class = "foot"
combat = 30
attacks = 2
hp = "1"
mp = 2
cost = "8"
upkeep = "1"
siege = 30
fighting_room = 2

[[troop]]
code = "WAL"
name = "Wall"
class = "foot"
combat = 0
attacks = 1
hp = "9999"
mp = 2
cost = "1"
upkeep = "0"
fighting_room = 2

[[troop]]
code = "HUL"
name = "Hulk"
class = "ship"
combat = 0
attacks = 1
hp = "9999"
mp = 3
cost = "1"
upkeep = "0"
storage = 4

[[troop]]
code = "SHO"
name = "Sure Shots"
class = "foot"
combat = 100
attacks = 1
hp = "1"
mp = 2
cost = "1"
upkeep = "0"
fighting_room = 2

[[troop]]
code = "GUA"
name = "Old Guard"
class = "foot"
combat = 80
attacks = 2
hp = "2"
mp = 2
cost = "30"
upkeep = "2"
fighting_room = 2

[[troop]]
code = "ELE"
name = "Elephant Rider"
class = "mounted"
combat = 50
attacks = 2
hp = "4"
mp = 3
cost = "20"
upkeep = "1"
fighting_room = 4

[[troop]]
code = "DWM"
name = "Dwarf Militia"
class = "foot"
combat = 40
attacks = 1
hp = "2"
mp = 2
cost = "5"
upkeep = "1"
fighting_room = 2
"#;

fn tables() -> Tables {
    tables_with(EXTRA)
}

/// A unit with troops given as (type, count, rank).
fn unit(owner: &str, id: &str, troops: &[(&str, u32, u8)]) -> Unit {
    unit_at(owner, id, troops, LocId(1), 2)
}

/// A unit leader with these skills: infantry, cavalry, siege, naval.
fn led(mut x: Unit, skills: [u32; 4]) -> Unit {
    x.leaders.push(Leader {
        name: "General".to_string(),
        hp: Fixed::whole(2),
        combat: 30,
        attacks: 2,
        infantry: skills[0],
        cavalry: skills[1],
        siege: skills[2],
        naval: skills[3],
        upkeep: Fixed::whole(2),
        damage: Fixed::ZERO,
    });
    x.unit_leader = Some(x.leaders.len() - 1);
    x
}

/// Hits and attacks of one kind of fighter of a unit over the whole battle.
fn hit_rate(rep: &BattleReport, owner: &str, id: &str, who: &Who, attacks: u32) -> (u64, u64) {
    let r = (k(owner), u(id));
    let mut out = (0u64, 0u64);
    for c in rep.rounds.iter().flat_map(|x| x.caused.iter()) {
        if c.unit == r && &c.who == who {
            out.0 += u64::from(c.damage);
            out.1 += u64::from(c.count * attacks);
        }
    }
    out
}

fn troop(code: &str) -> Who {
    Who::Troop(tc(code))
}

fn add(a: &mut (u64, u64), b: (u64, u64)) {
    a.0 += b.0;
    a.1 += b.1;
}

// ---------------------------------------------------------------------------------------
// The siege (2.6, T4, T5).

#[test]
fn t4_a_siege_roll_succeeds_with_sp_plus_sp_times_siegecraft_over_200() {
    let t = tables();
    // Per seed: four sappers (siege power 30) and four guns (50) under a leader of
    // siegecraft 42 before a wall high enough never to be ruined, so all eight roll.
    let (mut sappers, mut guns) = ((0u64, 0u64), (0u64, 0u64));
    for seed in 0..500 {
        let mut b = duel(BattleKind::Land);
        b.set_fort(200, 0, &t);
        b.max_rounds = 1;
        let besiegers = led(
            unit("FRA", "A1", &[("SAP", 4, 1), ("ART", 4, 1)]),
            [0, 0, 42, 0],
        );
        let setup = Setup {
            besieges: true,
            ..Setup::default()
        };
        b.add_unit(0, &besiegers, &t, setup);
        let defend = Setup {
            wants_to_defend: true,
            ..Setup::default()
        };
        b.add_unit(1, &unit("AUS", "G5", &[("WAL", 1, 1)]), &t, defend);
        let rep = b.fight(&mut rng(seed));
        assert_eq!(rep.siege.len(), 8, "each siege troop rolls once a battle");
        for roll in &rep.siege {
            let tally = if roll.troop == tc("SAP") {
                &mut sappers
            } else {
                &mut guns
            };
            tally.0 += u64::from(roll.success);
            tally.1 += 1;
        }
        let f = rep.fortification.as_ref().unwrap();
        let hits = rep.siege.iter().filter(|r| r.success).count() as u8;
        assert_eq!(f.damage_after, hits, "each success is one level of damage");
    }
    // T4: 30 + 30 × 42 / 200 = 36.3 %; without the leader 30 %, or with his skill added
    // whole 72 %.
    assert_chance("sappers", sappers.0, sappers.1, 0.363, &[0.30, 0.72]);
    // 50 + 50 × 42 / 200 = 60.5 %; without the leader 50 %.
    assert_chance("guns", guns.0, guns.1, 0.605, &[0.50, 0.92]);
}

// ---------------------------------------------------------------------------------------
// The chance of one attack (4.2, 4.6, 4.7, G21, G22).

#[test]
fn g22_each_attack_hits_with_its_modified_combat_capped_at_99() {
    let t = tables();
    let mut line = (0, 0);
    let mut cuirassiers = (0, 0);
    let mut guard = (0, 0);
    let mut general = (0, 0);
    let mut landed = (0, 0);
    for seed in 0..40 {
        // A leader of infantry 46 and cavalry 20 (T7), and another of infantry 100 whose
        // guard would reach 120 % (G22): they strike a wall that never falls.
        let mut b = duel(BattleKind::Land);
        b.max_rounds = 25;
        let army = led(
            unit("FRA", "A1", &[("LIN", 10, 1), ("CUI", 10, 1)]),
            [46, 20, 0, 0],
        );
        b.add_unit(0, &army, &t, Setup::default());
        let guard_unit = led(unit("FRA", "A2", &[("GUA", 10, 1)]), [100, 0, 0, 0]);
        b.add_unit(0, &guard_unit, &t, Setup::default());
        let amphibious = Setup {
            amphibious: true,
            ..Setup::default()
        };
        b.add_unit(0, &unit("FRA", "A3", &[("LIN", 10, 1)]), &t, amphibious);
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("WAL", 20, 1)]),
            &t,
            Setup::default(),
        );
        let rep = b.fight(&mut rng(seed));
        assert_eq!(rep.rounds.len(), 25);
        add(&mut line, hit_rate(&rep, "FRA", "A1", &troop("LIN"), 2));
        add(
            &mut cuirassiers,
            hit_rate(&rep, "FRA", "A1", &troop("CUI"), 2),
        );
        add(&mut guard, hit_rate(&rep, "FRA", "A2", &troop("GUA"), 2));
        add(
            &mut general,
            hit_rate(&rep, "FRA", "A1", &Who::Leader("General".into()), 2),
        );
        add(&mut landed, hit_rate(&rep, "FRA", "A3", &troop("LIN"), 2));
    }
    // T7: 30 + 30 × 46 / 200 = 36.9 %, not the bare 30 %.
    assert_chance("line infantry", line.0, line.1, 0.369, &[0.30, 0.33]);
    // Mounted troops take the cavalry skill: 40 + 40 × 20 / 200 = 44 %, not 40 % nor the
    // infantry skill's 49.2 %.
    assert_chance(
        "cuirassiers",
        cuirassiers.0,
        cuirassiers.1,
        0.44,
        &[0.40, 0.492],
    );
    // G22, T9: 120 % is capped at 99 %: one attack in a hundred misses.
    assert_chance("the guard", guard.0, guard.1, 0.99, &[1.0, 0.80]);
    // A leader fights on his own combat, unmodified: 30 %.
    assert_chance("the general", general.0, general.1, 0.30, &[0.369]);
    // Landing from the sea on enemy shores: −30 %, so 21 %.
    assert_chance("landed infantry", landed.0, landed.1, 0.21, &[0.30]);
}

#[test]
fn t10_defenders_on_the_walls_hit_with_the_fortifications_bonus() {
    let t = tables();
    let (mut grenadiers, mut cavalry) = ((0, 0), (0, 0));
    for seed in 0..20 {
        // A level-2 fortification has room for 12: six grenadiers (room 2 each), or
        // three cavalry (room 4); here two grenadiers and two cavalry troops fit.
        let mut b = duel(BattleKind::Land);
        b.set_fort(2, 0, &t);
        b.max_rounds = 100;
        let defend = Setup {
            wants_to_defend: true,
            ..Setup::default()
        };
        b.add_unit(
            0,
            &unit("FRA", "G5", &[("GRE", 2, 1), ("CUI", 2, 1)]),
            &t,
            defend,
        );
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("WAL", 10, 1)]),
            &t,
            Setup::default(),
        );
        let rep = b.fight(&mut rng(seed));
        add(
            &mut grenadiers,
            hit_rate(&rep, "FRA", "G5", &troop("GRE"), 2),
        );
        add(&mut cavalry, hit_rate(&rep, "FRA", "G5", &troop("CUI"), 2));
    }
    // Foot: 35 × 1.47 = 51.45 % (T10 with the grenadiers' 35), not the bare 35 %.
    assert_chance(
        "grenadiers on the walls",
        grenadiers.0,
        grenadiers.1,
        0.5145,
        &[0.35],
    );
    // Cavalry gets the smaller mounted bonus: 40 × 1.15 = 46 %, not the foot bonus's
    // 58.8 % nor the bare 40 %.
    assert_chance(
        "cavalry on the walls",
        cavalry.0,
        cavalry.1,
        0.46,
        &[0.40, 0.588],
    );
}

#[test]
fn at_sea_ships_take_naval_tactics_and_marines_their_marine_modifier() {
    let t = tables();
    let (mut warships, mut cavalry, mut infantry) = ((0, 0), (0, 0), (0, 0));
    for seed in 0..20 {
        let mut b = duel(BattleKind::Sea);
        b.max_rounds = 25;
        // Ten warships under an admiral of naval skill 40, with five cavalry and ten
        // line infantry on deck (capacity 40: 5 × 4 + 10 × 2).
        let fleet = led(unit("FRA", "F1", &[("WAR", 10, 2)]), [0, 0, 0, 40]);
        let fi = b.add_unit(0, &fleet, &t, Setup::default());
        let army = unit("FRA", "A1", &[("LCV", 5, 1), ("LIN", 10, 1)]);
        b.add_marines(0, &army, fi, &t);
        b.add_unit(
            1,
            &unit("AUS", "F1", &[("HUL", 10, 1)]),
            &t,
            Setup::default(),
        );
        let rep = b.fight(&mut rng(seed));
        add(&mut warships, hit_rate(&rep, "FRA", "F1", &troop("WAR"), 2));
        add(&mut cavalry, hit_rate(&rep, "FRA", "A1", &troop("LCV"), 2));
        add(&mut infantry, hit_rate(&rep, "FRA", "A1", &troop("LIN"), 2));
    }
    // 35 + 35 × 40 / 200 = 42 %.
    assert_chance("warships", warships.0, warships.1, 0.42, &[0.35]);
    // Cavalry at sea −50 %: 15 %; infantry −30 %: 21 %.
    assert_chance(
        "cavalry as marines",
        cavalry.0,
        cavalry.1,
        0.15,
        &[0.30, 0.21],
    );
    assert_chance(
        "infantry as marines",
        infantry.0,
        infantry.1,
        0.21,
        &[0.30, 0.15],
    );
}

// ---------------------------------------------------------------------------------------
// The aftermath (4.2, T35, T36) and captures (7.5).

#[test]
fn t35_the_wounded_elephant_rider_dies_three_times_in_four() {
    let mut t = tables();
    t.fortifications[0].foot_hp = Fixed::ZERO; // the example's militia keep 2 hit points
    let mut destroyed = 0u64;
    let n = 2_000u64;
    for seed in 0..n {
        let mut b = Battle::new(BattleKind::Land, LocId(119), None);
        b.add_side(vec![k("FRA")]);
        b.add_side(vec![k("IND")]);
        b.set_enemies(&k("FRA"), &k("IND"));
        b.set_fort(1, 0, &t);
        let mut patrol = led(unit("FRA", "A2", &[("ELE", 1, 1)]), [0, 0, 0, 0]);
        patrol.leaders[0].combat = 50;
        b.add_unit(0, &patrol, &t, Setup::default());
        let defend = Setup {
            wants_to_defend: true,
            ..Setup::default()
        };
        b.add_unit(1, &unit("IND", "A20", &[("DWM", 2, 1)]), &t, defend);
        // The rulebook's hits: the rider 2 and 2, the leader none, the militia 2 and 1.
        let mut d = Scripted::new(seed)
            .chances(Draw::Hit, [true, true, false, false, true, true])
            .chances(Draw::Hit, [true, true, false, false, true, false]);
        let rep = b.fight(&mut d);
        assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
        assert_eq!(rep.aftermath.len(), 1);
        assert_eq!(rep.aftermath[0].chance, 7_500);
        destroyed += u64::from(rep.aftermath[0].destroyed);
    }
    // 3 damage of 4 hit points: 3/4; not 1/2 (the unit's 3 of 6), nor certain death.
    assert_chance("the wounded rider", destroyed, n, 0.75, &[0.5, 1.0]);
}

#[test]
fn t36_a_wounded_troop_dies_with_damage_over_hit_points_winner_or_loser() {
    let t = tables();
    let (mut one, mut two) = (0u64, 0u64);
    let n = 1_500u64;
    for seed in 0..n {
        let mut b = duel(BattleKind::Land);
        b.max_rounds = 2;
        b.add_unit(
            0,
            &unit("FRA", "A1", &[("LCV", 1, 1)]),
            &t,
            Setup::default(),
        );
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("LCV", 1, 1)]),
            &t,
            Setup::default(),
        );
        // France deals 2, Austria 1, then nobody anything.
        let mut d = Scripted::new(seed).chances(
            Draw::Hit,
            [true, true, true, false, false, false, false, false],
        );
        let rep = b.fight(&mut d);
        assert!(rep.stopped);
        for w in &rep.aftermath {
            match w.chance {
                3_333 => one += u64::from(w.destroyed),
                6_666 => two += u64::from(w.destroyed),
                c => panic!("unexpected chance {c}"),
            }
        }
    }
    // Cavalry of 3 hit points: 1 wound kills one time in three, 2 wounds two in three.
    assert_chance("one wound of three", one, n, 1.0 / 3.0, &[0.5, 2.0 / 3.0]);
    assert_chance("two wounds of three", two, n, 2.0 / 3.0, &[0.5, 1.0 / 3.0]);
}

#[test]
fn victors_capture_casualty_artillery_one_in_five_and_ships_one_in_ten_or_five() {
    let t = tables();
    let mut guns = (0u64, 0u64);
    for seed in 0..150 {
        let mut b = duel(BattleKind::Land);
        b.add_unit(
            0,
            &unit("FRA", "A1", &[("GUA", 12, 1)]),
            &t,
            Setup::default(),
        );
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("ART", 20, 1)]),
            &t,
            Setup::default(),
        );
        let rep = b.fight(&mut rng(seed));
        assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
        guns.0 += rep.captured.len() as u64;
        guns.1 += b
            .fighters
            .iter()
            .filter(|f| f.dead && f.who == troop("ART"))
            .count() as u64;
    }
    assert_chance("artillery taken", guns.0, guns.1, 0.20, &[0.10, 0.0]);
    let (mut warships, mut transports) = ((0u64, 0u64), (0u64, 0u64));
    for seed in 0..100 {
        let mut b = duel(BattleKind::Sea);
        let fleet = led(unit("FRA", "F1", &[("WAR", 20, 1)]), [0, 0, 0, 100]);
        b.add_unit(0, &fleet, &t, Setup::default());
        let enemy = unit("AUS", "F1", &[("WAR", 10, 1), ("TRN", 10, 1)]);
        b.add_unit(1, &enemy, &t, Setup::default());
        let rep = b.fight(&mut rng(seed));
        assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
        for (code, tally) in [("WAR", &mut warships), ("TRN", &mut transports)] {
            tally.0 += rep.captured.iter().filter(|c| c.troop == tc(code)).count() as u64;
            tally.1 += b
                .fighters
                .iter()
                .filter(|f| f.dead && f.who == troop(code) && b.units[f.unit].side == 1)
                .count() as u64;
        }
    }
    assert_chance("warships taken", warships.0, warships.1, 0.10, &[0.20, 0.0]);
    assert_chance(
        "transports taken",
        transports.0,
        transports.1,
        0.20,
        &[0.10, 0.0],
    );
}

// ---------------------------------------------------------------------------------------
// Several sides (4.5, T45).

#[test]
fn t45_each_troop_strikes_a_side_in_proportion_to_its_troops() {
    let t = tables();
    // (attacker, side struck, the other side, troops of each): an independent striking 10
    // French and 15 British; a Frenchman striking 5 independents and 15 British.
    for (attacker, struck, other, counts, p, wrong) in [
        ("IND", "FRA", "GBR", [10, 15], 0.4, [0.5, 0.6]),
        ("FRA", "IND", "GBR", [5, 15], 0.25, [0.5, 0.75]),
    ] {
        let (mut on_struck, mut all) = (0u64, 0u64);
        for seed in 0..20 {
            let mut b = Battle::new(BattleKind::Land, LocId(9), None);
            let sides = [attacker, struck, other];
            for s in sides {
                b.add_side(vec![k(s)]);
            }
            for x in sides {
                for y in sides {
                    b.set_enemies(&k(x), &k(y));
                }
            }
            b.max_rounds = 10;
            let id = |s: &str| if s == "IND" { "G9" } else { "A1" };
            b.add_unit(
                0,
                &unit(attacker, id(attacker), &[("SHO", 20, 1)]),
                &t,
                Setup::default(),
            );
            for (i, s) in [struck, other].into_iter().enumerate() {
                let walls = unit(s, id(s), &[("WAL", counts[i], 1)]);
                b.add_unit(i + 1, &walls, &t, Setup::default());
            }
            let rep = b.fight(&mut rng(seed));
            for st in rep.rounds.iter().flat_map(|r| r.status.iter()) {
                let n = st.suffered.0 as u64 / 100;
                all += n;
                if st.unit.0 == k(struck) {
                    on_struck += n;
                }
            }
        }
        let what = format!("{attacker} striking {struck}");
        assert_chance(&what, on_struck, all, p, &wrong);
    }
}

// ---------------------------------------------------------------------------------------
// Lots drawn within a battle (G19, G20).

#[test]
fn g19_g20_the_order_of_losses_and_the_walls_room_are_drawn_by_lot() {
    let t = tables();
    let n = 1_500u64;
    let (mut first_falls, mut first_holds) = (0u64, 0u64);
    for seed in 0..n {
        // Three line infantry in rank 1 take one hit: each is as likely to be the one.
        let mut b = duel(BattleKind::Land);
        b.max_rounds = 2;
        b.add_unit(
            0,
            &unit("FRA", "A1", &[("LIN", 3, 1)]),
            &t,
            Setup::default(),
        );
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("SHO", 1, 1)]),
            &t,
            Setup::default(),
        );
        // Round 1: the infantry miss and the sure shot hits; round 2: nothing.
        let mut d =
            Scripted::new(seed).chances(Draw::Hit, [hits(0, 6), hits(1, 0), hits(0, 7)].concat());
        b.fight(&mut d);
        first_falls += u64::from(b.fighters[0].dead);
        // Eight grenadiers on walls with room for six: the hit-point bonus goes by lot.
        let mut b = duel(BattleKind::Land);
        b.set_fort(2, 0, &t);
        b.max_rounds = 1;
        let defend = Setup {
            wants_to_defend: true,
            ..Setup::default()
        };
        b.add_unit(0, &unit("FRA", "G5", &[("GRE", 8, 1)]), &t, defend);
        b.add_unit(
            1,
            &unit("AUS", "A1", &[("WAL", 1, 1)]),
            &t,
            Setup::default(),
        );
        b.fight(&mut rng(seed));
        let holders = b
            .fighters
            .iter()
            .filter(|f| f.bonus_hp > Fixed::ZERO)
            .count();
        assert_eq!(holders, 6);
        first_holds += u64::from(b.fighters[0].bonus_hp > Fixed::ZERO);
    }
    assert_chance(
        "the first of three falls",
        first_falls,
        n,
        1.0 / 3.0,
        &[1.0, 0.0],
    );
    assert_chance(
        "the first of eight holds",
        first_holds,
        n,
        0.75,
        &[1.0, 0.5],
    );
}

// ---------------------------------------------------------------------------------------
// Chances in the turn: landings, harbours, ships trapped by a conquest, ties, the dump.

#[test]
fn t14_g33_an_amphibious_landing_succeeds_with_the_soldiers_total_combat() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 1)]); // 2 attacks × 30 = 60
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.phase("FRA", "F1", 1)
        .unload
        .push((None, u("A1"), LocId(HOL)));
    let n = 1_000u64;
    let mut landed = 0u64;
    for seed in 0..n {
        let out = play(&map, &reseeded(&s, seed), &o);
        let ashore = out.count(|w| {
            matches!(
                w,
                What::Unloaded {
                    amphibious: true,
                    ..
                }
            )
        });
        let failed = out.count(|w| matches!(w, What::LandingFailed { chance: 60, .. }));
        assert_eq!(ashore + failed, 1);
        landed += ashore as u64;
    }
    // 60 %: not the combat of one attack (30 %), nor a sure landing.
    assert_chance("landings", landed, n, 0.60, &[0.30, 1.0]);
}

#[test]
fn g32_a_captured_harbour_is_lost_one_time_in_ten() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    let n = 1_000u64;
    let mut lost = 0u64;
    for seed in 0..n {
        let out = play(&map, &reseeded(&s, seed), &o);
        assert_eq!(out.owner(FLA), "FRA");
        lost += u64::from(!out.state.provinces[&LocId(FLA)].harbour);
    }
    assert_chance("harbours lost", lost, n, 0.10, &[0.0, 0.20]);
}

#[test]
fn t57_g31_ships_trapped_by_a_conquest_are_taken_one_in_ten_or_one_in_five() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.max_phases = 1;
    // Lakeland has no sea to flee to: the Austrian ships in its garrison are trapped.
    s.provinces.get_mut(&LocId(LAK)).unwrap().owner = k("AUS");
    let i = s.unit_index(&k("IND"), u("G9")).unwrap();
    s.units.remove(i);
    place(&mut s, "AUS", "G9", LAK, &[("WAR", 10), ("TRN", 10)]);
    place(&mut s, "FRA", "A1", BAD, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[LAK]);
    let (mut warships, mut transports) = (0u64, 0u64);
    let n = 150u64;
    for seed in 0..n {
        let out = play(&map, &reseeded(&s, seed), &o);
        assert_eq!(out.owner(LAK), "FRA");
        let taken = out.state.unit(&k("FRA"), u("F1"));
        warships += taken.map_or(0, |f| f.count(&tc("WAR"))) as u64;
        transports += taken.map_or(0, |f| f.count(&tc("TRN"))) as u64;
    }
    assert_chance("warships taken", warships, 10 * n, 0.10, &[0.20, 0.0]);
    assert_chance("transports taken", transports, 10 * n, 0.20, &[0.10, 0.0]);
}

#[test]
fn g14_a_tie_for_a_province_is_settled_by_an_even_lot() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "GBR", "AUS");
    set_ally(&mut s, "FRA", "GBR");
    // As many troops and as much combat on each side: the lot decides.
    place(&mut s, "FRA", "A1", BRA, &[("LIN", 2)]);
    place(&mut s, "GBR", "A1", BRA, &[("LIN", 2)]);
    let o = Orders::new();
    let n = 800u64;
    let mut french = 0u64;
    for seed in 0..n {
        let out = play(&map, &reseeded(&s, seed), &o);
        french += u64::from(out.owner(BRA) == "FRA");
        assert_ne!(out.owner(BRA), "AUS");
    }
    assert_chance("France wins the lot", french, n, 0.5, &[0.0, 1.0]);
}

#[test]
fn g19_the_heavy_and_cheap_are_thrown_overboard_first() {
    // One transport (storage 4) with two line infantry (weight 2, cost 6) and one
    // grenadier (weight 2, cost 12) aboard: one must go, each with a chance in proportion
    // to its weight over its cost. The grenadier's is (2/12) / (2/6 + 2/6 + 2/12) = 1/5.
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 2), ("GRE", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.route("FRA", "F1", &[0]);
    let n = 1_500u64;
    let mut grenadier = 0u64;
    for seed in 0..n {
        let out = play(&map, &reseeded(&s, seed), &o);
        let thrown: Vec<&What> = out.events_at(phase(1, MoveStep::StorageChecked));
        assert_eq!(thrown.len(), 1);
        if let What::Overboard { troops, .. } = thrown[0] {
            grenadier += u64::from(troops[0].code == tc("GRE"));
        }
    }
    // Not one in three (every troop alike), nor the grenadier never.
    assert_chance("the grenadier goes", grenadier, n, 0.2, &[1.0 / 3.0, 0.0]);
}

#[test]
fn t45_through_the_turn_two_invaders_at_war_split_the_independents_blows() {
    // The same rule as T45, with the battle mustered by the turn: France (2 troops) and
    // Britain (6), at war with each other, invade independent Lakeland; every independent
    // strikes France with a chance of 2 in 8.
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    s.settings.max_phases = 1;
    s.tables.troops.get_mut(&tc("MIL")).unwrap().combat = 100;
    s.tables.troops.get_mut(&tc("MIL")).unwrap().attacks = 1;
    place(&mut s, "IND", "G9", LAK, &[("MIL", 6)]);
    place(&mut s, "FRA", "A1", LAK, &[("GRE", 2)]);
    place(&mut s, "GBR", "A1", LAK, &[("GRE", 6)]);
    for a in [("FRA", "A1"), ("GBR", "A1")] {
        let x = s.unit_mut(&k(a.0), u(a.1)).unwrap();
        for t in &mut x.troops {
            t.rank = 1;
        }
    }
    // The invaders do not strike back (the independents only are counted): no combat.
    s.tables.troops.get_mut(&tc("GRE")).unwrap().combat = 0;
    s.tables.troops.get_mut(&tc("GRE")).unwrap().hp = Fixed::whole(99);
    let o = Orders::new();
    let (mut on_france, mut all) = (0u64, 0u64);
    for seed in 0..30 {
        let out = play(&map, &reseeded(&s, seed), &o);
        let (_, rep) = out.fought()[0];
        // The first 30 rounds, before any grenadier of 99 hit points can fall and change
        // the proportions.
        for st in rep.rounds[..30].iter().flat_map(|r| r.status.iter()) {
            let n = st.suffered.0 as u64 / 100;
            all += n;
            if st.unit.0 == k("FRA") {
                on_france += n;
            }
        }
    }
    assert_chance("blows on France", on_france, all, 0.25, &[0.5, 0.75]);
}
