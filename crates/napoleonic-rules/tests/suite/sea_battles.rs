//! Sea battles (M6; digest 4.3, 4.4, 4.6, 9.3 T50-T53; decisions G15, G16): ships and
//! marines pooled by rank, the marine capacity and its refill, the marine modifier, only
//! fleets retreating and taking their armies along, the battle lasting while ships do,
//! captures, sunk fleets, sea border battles, and a fleet that flees into enemy waters.

use crate::battle_support::*;
use crate::moves_support;

use moves_support::*;
use napoleonic_rules::Fixed;
use napoleonic_rules::battle::engine::{Battle, Setup};
use napoleonic_rules::battle::report::Skill;
use napoleonic_rules::battle::{BattleKind, BattleReport, Draw, Scripted, sea};
use napoleonic_rules::event::{MoveStep, What};
use napoleonic_rules::ids::LocId;
use napoleonic_rules::state::{Leader, Troop, Unit};
use napoleonic_rules::tables::Tables;
use napoleonic_rules::turn::Turn;

fn unit(owner: &str, id: &str, troops: &[(&str, u32, u8)]) -> Unit {
    unit_at(owner, id, troops, LocId(CHA), 3)
}

fn admiral(name: &str, naval: u32) -> Leader {
    Leader {
        name: name.to_string(),
        hp: Fixed::whole(2),
        combat: 0,
        attacks: 1,
        infantry: 0,
        cavalry: 0,
        siege: 0,
        naval,
        upkeep: Fixed::whole(2),
        damage: Fixed::ZERO,
    }
}

/// A sea battle in the Channel between France (side 0) and Britain (side 1).
fn at_sea() -> Battle {
    let mut b = Battle::new(BattleKind::Sea, LocId(CHA), None);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("GBR")]);
    b.set_enemies(&k("FRA"), &k("GBR"));
    b
}

fn fleet() -> Setup {
    Setup {
        may_retreat: true,
        destinations: vec![LocId(NSE)],
        ..Setup::default()
    }
}

fn asked(d: &Scripted, draw: Draw) -> Vec<u32> {
    d.log.iter().filter(|x| x.0 == draw).map(|x| x.1).collect()
}

fn suffered(rep: &BattleReport, round: usize, owner: &str, id: &str) -> Fixed {
    rep.rounds[round - 1]
        .status
        .iter()
        .find(|s| s.unit == (k(owner), u(id)))
        .map_or(Fixed::ZERO, |s| s.suffered)
}

fn caused_by(rep: &BattleReport, round: usize, owner: &str, id: &str) -> u32 {
    rep.rounds[round - 1]
        .caused
        .iter()
        .filter(|c| c.unit == (k(owner), u(id)))
        .map(|c| c.count)
        .sum()
}

// ---------------------------------------------------------------------------------------
// Marines and ships on one deck (4.6).

#[test]
fn t50_marines_in_rank_one_fall_before_any_ship_is_hit() {
    let t = Tables::standard();
    let mut b = at_sea();
    let f = b.add_unit(0, &unit("FRA", "F1", &[("WAR", 2, 2)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), f, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 3, 1)]), &t, fleet());
    b.max_rounds = 1;
    // France: 4 ship attacks and 4 marine attacks, all missing; Britain: 3 hits of 6.
    let mut d = Scripted::new(1).chances(Draw::Hit, [hits(0, 8), hits(3, 3)].concat());
    let rep = b.fight(&mut d);
    assert_eq!(
        suffered(&rep, 1, "FRA", "A1"),
        Fixed::whole(2),
        "both marines first"
    );
    assert_eq!(
        suffered(&rep, 1, "FRA", "F1"),
        Fixed::whole(1),
        "then a ship"
    );
}

/// 4.6: a transport has no marine capacity, so the army it carries stays below decks: the
/// report says so, rather than that it fights as marines (it neither hits nor is hit).
#[test]
fn an_army_aboard_transports_is_reported_below_decks() {
    let t = Tables::standard();
    let mut b = at_sea();
    let f = b.add_unit(0, &unit("FRA", "F1", &[("TRN", 2, 1)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), f, &t);
    let w = b.add_unit(0, &unit("FRA", "F2", &[("WAR", 1, 1)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A2", &[("LIN", 1, 1)]), w, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 3, 1)]), &t, fleet());
    b.max_rounds = 1;
    let mut d = Scripted::new(1).chances(Draw::Hit, hits(3, 3));
    let rep = b.fight(&mut d);
    let of = |id: &str| {
        rep.units
            .iter()
            .find(|x| x.unit == (k("FRA"), u(id)))
            .unwrap()
    };
    assert!(of("A1").below_decks, "on transports");
    assert!(!of("A2").below_decks, "a warship takes marines");
    assert!(!of("F1").below_decks);
    assert_eq!(suffered(&rep, 1, "FRA", "A1"), Fixed::ZERO);
    assert_eq!(caused_by(&rep, 1, "FRA", "A1"), 0);
}

#[test]
fn t52_a_warship_fights_with_two_infantry_and_the_rest_wait_below() {
    let t = Tables::standard();
    let mut b = at_sea();
    let f = b.add_unit(0, &unit("FRA", "F1", &[("WAR", 1, 1)]), &t, fleet());
    // Marine capacity 4, infantry weigh 2: two of the three go on deck, front rank first.
    b.add_marines(
        0,
        &unit("FRA", "A1", &[("LIN", 1, 3), ("LIN", 2, 2)]),
        f,
        &t,
    );
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 1, 1)]), &t, fleet());
    b.max_rounds = 1;
    let rep = b.fight(&mut Scripted::new(2).chances(Draw::Hit, hits(0, 10)));
    assert_eq!(caused_by(&rep, 1, "FRA", "A1"), 2);
    let on_deck: Vec<u8> = b
        .fighters
        .iter()
        .filter(|x| x.marine && x.active)
        .map(|x| x.rank)
        .collect();
    assert_eq!(on_deck, vec![2, 2]);
    // A transport carries soldiers but has no marine capacity: none of them fight.
    let mut b = at_sea();
    let f = b.add_unit(0, &unit("FRA", "F1", &[("TRN", 1, 1)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), f, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 1, 1)]), &t, fleet());
    b.max_rounds = 1;
    let rep = b.fight(&mut Scripted::new(2).chances(Draw::Hit, hits(0, 10)));
    assert_eq!(caused_by(&rep, 1, "FRA", "A1"), 0);
}

fn refill(replaced: bool) -> BattleReport {
    let t = Tables::standard();
    let mut b = at_sea();
    b.marines_replaced = replaced;
    let f = b.add_unit(0, &unit("FRA", "F1", &[("WAR", 1, 5)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A1", &[("LIN", 4, 1)]), f, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 2, 1)]), &t, fleet());
    b.max_rounds = 3;
    // Round 1: Britain kills both marines on deck (2 hits of 4); then everyone misses.
    let script = [
        hits(0, 6),
        hits(2, 2),
        hits(0, 6),
        hits(0, 4),
        hits(0, 6),
        hits(0, 4),
    ];
    b.fight(&mut Scripted::new(3).chances(Draw::Hit, script.concat()))
}

#[test]
fn g15_t51_fallen_marines_are_replaced_from_below_decks_unless_the_setting_says_no() {
    let rep = refill(true);
    assert_eq!(caused_by(&rep, 1, "FRA", "A1"), 2);
    assert_eq!(
        caused_by(&rep, 2, "FRA", "A1"),
        2,
        "a casualty still fights in round 2"
    );
    assert_eq!(
        caused_by(&rep, 3, "FRA", "A1"),
        2,
        "the next two come up (FAQ)"
    );
    let rep = refill(false);
    assert_eq!(
        caused_by(&rep, 3, "FRA", "A1"),
        0,
        "chapter 6: not replaced"
    );
}

#[test]
fn the_marine_modifier_and_naval_tactics() {
    let t = Tables::standard();
    let mut b = at_sea();
    let mut f1 = unit("FRA", "F1", &[("WAR", 2, 1)]);
    f1.leaders.push(admiral("Villeneuve", 40));
    f1.unit_leader = Some(0);
    let f = b.add_unit(0, &f1, &t, fleet());
    b.add_marines(
        0,
        &unit("FRA", "A1", &[("LIN", 1, 1), ("LCV", 1, 1), ("MAR", 1, 1)]),
        f,
        &t,
    );
    let chances: Vec<u32> = (0..b.fighters.len()).map(|i| b.chance(i, false)).collect();
    // Warships 35 + 35 × 40 / 200 = 42; the admiral on his own combat (0); infantry
    // −30 %, cavalry −50 %, marines no penalty (7.5).
    assert_eq!(chances, vec![4_200, 4_200, 0, 2_100, 1_500, 3_000]);
}

#[test]
fn soldiers_keep_a_side_in_the_battle_only_while_its_ships_do() {
    let t = Tables::standard();
    let mut b = at_sea();
    let f = b.add_unit(0, &unit("FRA", "F1", &[("WAR", 1, 1)]), &t, fleet());
    b.add_marines(0, &unit("FRA", "A1", &[("MAR", 2, 5)]), f, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 2, 1)]), &t, fleet());
    // Britain sinks the one warship (3 hits in round 1, removed at the end of round 2):
    // the marines still aboard do not keep France in the battle.
    let script = [hits(0, 6), hits(3, 1), hits(0, 6), hits(0, 4)];
    let rep = b.fight(&mut Scripted::new(4).chances(Draw::Hit, script.concat()));
    assert_eq!(rep.rounds.len(), 2);
    assert_eq!(rep.winning_kingdoms(), vec![k("GBR")]);
    assert_eq!(
        caused_by(&rep, 2, "FRA", "A1"),
        2,
        "they fought while the ship floated"
    );
}

#[test]
fn only_the_fleet_retreats_and_its_armies_go_with_it() {
    let t = Tables::standard();
    let mut b = at_sea();
    let mut f1 = unit("FRA", "F1", &[("WAR", 2, 3)]);
    f1.retreat_level = 2;
    let f = b.add_unit(0, &f1, &t, fleet());
    let mut a1 = unit("FRA", "A1", &[("LIN", 2, 1)]);
    a1.retreat_level = 1;
    b.add_marines(0, &a1, f, &t);
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 3, 1)]), &t, fleet());
    // Britain hits a marine in round 1: the fleet's own ranks 1-2 are empty, it leaves
    // with the army, whose wounded marine is settled as it goes (G18).
    let mut d = Scripted::new(5).chances(Draw::Hit, [hits(0, 8), hits(1, 5)].concat());
    let rep = b.fight(&mut d);
    let gone: Vec<_> = rep.rounds[0]
        .retreats
        .iter()
        .map(|r| (r.unit.1, r.to, r.losses.killed.len()))
        .collect();
    assert_eq!(
        gone,
        vec![(u("F1"), LocId(NSE), 0), (u("A1"), LocId(NSE), 1)]
    );
    assert_eq!(rep.rounds.len(), 1);
    assert_eq!(rep.winning_kingdoms(), vec![k("GBR")]);
    assert!(rep.improved.is_empty(), "no admiral, no gain");
}

#[test]
fn victors_capture_casualty_ships_into_their_biggest_fleet_and_their_admiral_learns() {
    let t = Tables::standard();
    let mut b = at_sea();
    b.add_unit(
        0,
        &unit("FRA", "F1", &[("TRN", 1, 1), ("WAR", 1, 1)]),
        &t,
        fleet(),
    );
    b.add_unit(1, &unit("GBR", "F1", &[("WAR", 1, 1)]), &t, fleet());
    let mut f2 = unit("GBR", "F2", &[("WAR", 2, 1)]);
    f2.leaders.push(admiral("Nelson", 60));
    f2.unit_leader = Some(0);
    b.add_unit(1, &f2, &t, fleet());
    // Britain sinks both French ships in round 1 (5 hits); nothing else hits.
    let mut d = Scripted::new(6)
        .picks(Draw::Order, [0, 0, 0])
        .chances(
            Draw::Hit,
            [hits(0, 3), hits(5, 1), hits(0, 3), hits(0, 6)].concat(),
        )
        .chances(Draw::Capture, [true, true]);
    let rep = b.fight(&mut d);
    assert_eq!(
        asked(&d, Draw::Capture),
        vec![2_000, 1_000],
        "transport 20 %, warship 10 %"
    );
    assert!(rep.captured.iter().all(|c| c.to == (k("GBR"), u("F2"))));
    assert_eq!(rep.captured.len(), 2);
    let gains: Vec<(Skill, u32)> = rep.improved.iter().map(|i| (i.skill, i.to)).collect();
    assert_eq!(gains, vec![(Skill::Naval, 62)]);
}

// ---------------------------------------------------------------------------------------
// Sea battles in the turn (M6).

#[test]
fn t53_the_sea_battle_comes_before_the_unloading() {
    let setup = |flee: bool| {
        let (map, mut s) = world();
        set_war(&mut s, "FRA", "GBR");
        place(&mut s, "FRA", "F1", NSE, &[("WAR", 3)]);
        place(&mut s, "FRA", "A1", NSE, &[("LIN", 2)]);
        board(&mut s, "FRA", "A1", "FRA", "F1");
        if flee {
            set_ranks(&mut s, "FRA", "F1", 3, 1);
        }
        place(&mut s, "GBR", "F1", CHA, &[("TRN", 1)]);
        let mut o = Orders::new();
        o.route("FRA", "F1", &[CHA]);
        o.phase("FRA", "F1", 1)
            .unload
            .push((None, u("A1"), LocId(NOR)));
        (map, s, o)
    };
    let (map, s, o) = setup(false);
    let out = play(&map, &s, &o);
    assert_eq!(out.fought()[0].1.kind, BattleKind::Sea);
    assert_eq!(
        out.at("FRA", "A1"),
        NOR,
        "still there and did not retreat: it lands"
    );
    // A fleet that flees the battle cannot unload: it went back to the North Sea with the
    // army aboard and has no move points left.
    let (map, s, o) = setup(true);
    let out = play(&map, &s, &o);
    let (_, rep) = out.fought()[0];
    assert_eq!(
        rep.rounds[0].retreats[0].to,
        LocId(NSE),
        "back where it came from"
    );
    assert_eq!((out.at("FRA", "F1"), out.mp("FRA", "F1")), (NSE, 0));
    assert!(out.unit("FRA", "F1").retreated);
    assert_eq!(out.at("FRA", "A1"), NSE);
    assert_eq!(out.unit("FRA", "A1").aboard, Some((k("FRA"), u("F1"))));
    assert!(out.failed_with(&["FRA F1", "unload", "retreated"]));
}

#[test]
fn captured_ships_join_the_victors_fleet_in_the_state() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    s.tables.troops.get_mut(&tc("TRN")).unwrap().capture = 100;
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 2)]);
    place(&mut s, "GBR", "F1", CHA, &[("WAR", 4)]);
    let out = play(&map, &s, &Orders::new());
    let (_, rep) = out.fought()[0];
    assert_eq!(rep.winning_kingdoms(), vec![k("GBR")]);
    assert!(!out.has("FRA", "F1"));
    assert_eq!(out.unit("GBR", "F1").count(&tc("TRN")), 2);
    assert_eq!(rep.captured.len(), 2);
}

#[test]
fn g38_fleets_of_kingdoms_not_at_war_share_a_sea() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "GBR", "F1", CHA, &[("WAR", 1)]);
    set_ally(&mut s, "FRA", "AUS");
    place(&mut s, "AUS", "F1", CHA, &[("WAR", 1)]);
    let out = play(&map, &s, &Orders::new());
    assert!(out.fought().is_empty());
}

#[test]
fn a_fleet_fleeing_into_enemy_waters_fights_there_and_flees_no_more() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    set_war(&mut s, "FRA", "AUS");
    // No French harbour on the Channel: the only way out is the North Sea, where an
    // Austrian fleet waits.
    s.provinces.get_mut(&LocId(PAR)).unwrap().harbour = false;
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 3)]);
    set_ranks(&mut s, "FRA", "F1", 2, 1);
    place(&mut s, "GBR", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "AUS", "F1", NSE, &[("TRN", 1)]);
    let out = play(&map, &s, &Orders::new());
    let fought = out.fought();
    assert!(fought.len() >= 2, "{fought:#?}");
    let (p1, first) = fought[0];
    let (p2, second) = fought[1];
    assert_eq!((p1, first.at, first.kind), (1, LocId(CHA), BattleKind::Sea));
    assert_eq!(first.rounds[0].retreats[0].to, LocId(NSE));
    assert_eq!((p2, second.at), (1, LocId(NSE)));
    assert!(second.unit(&(k("FRA"), u("F1"))).is_some());
    assert!(
        second.rounds.iter().all(|r| r.retreats.is_empty()),
        "it fled once this turn: now it fights"
    );
}

#[test]
fn g16_a_fleet_that_flees_always_stops_and_a_winner_stops_only_by_the_setting() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 3)]);
    set_ranks(&mut s, "FRA", "F1", 2, 1);
    place(&mut s, "GBR", "F1", CHA, &[("WAR", 3)]);
    let out = play(&map, &s, &Orders::new());
    // G46: no origin (it did not sail); its own harbour of Paris comes first.
    assert_eq!((out.at("FRA", "F1"), out.mp("FRA", "F1")), (PAR, 0));
    assert_eq!(out.mp("GBR", "F1"), 3);
    s.settings.sea_battle_stops_fleet = true;
    let out = play(&map, &s, &Orders::new());
    assert_eq!(out.mp("GBR", "F1"), 0);
}

// ---------------------------------------------------------------------------------------
// A fleet left without ships (4.6, M6).

#[test]
fn a_sunk_fleets_leaders_and_armies_go_to_a_sister_fleet_or_are_lost_at_sea() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[]);
    add_leader(&mut s, "FRA", "F1", "Villeneuve");
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 2)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    place(&mut s, "FRA", "F2", CHA, &[("TRN", 1)]);
    let orders = Orders::new();
    let mut turn = Turn::new(&map, &s, &orders.0).unwrap();
    let when = phase(1, MoveStep::SeaBattles);
    sea::sunk(&mut turn, when, &(k("FRA"), u("F1")));
    assert!(turn.state.unit(&k("FRA"), u("F1")).is_none());
    let f2 = turn.state.unit(&k("FRA"), u("F2")).unwrap();
    assert_eq!(f2.leaders[0].name, "Villeneuve");
    assert_eq!(
        turn.state.unit(&k("FRA"), u("A1")).unwrap().aboard,
        Some((k("FRA"), u("F2")))
    );
    // With no sister fleet, everything aboard is lost at sea.
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[]);
    add_leader(&mut s, "FRA", "F1", "Villeneuve");
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 2)]);
    add_leader(&mut s, "FRA", "A1", "Lannes");
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut turn = Turn::new(&map, &s, &orders.0).unwrap();
    sea::sunk(&mut turn, when, &(k("FRA"), u("F1")));
    assert!(turn.state.unit(&k("FRA"), u("A1")).is_none());
    let lost: Vec<&str> = turn
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::LeaderLost { leader, .. } => Some(leader.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(lost, vec!["Villeneuve", "Lannes"]);
    assert!(
        turn.events
            .iter()
            .any(|e| matches!(&e.what, What::Overboard { troops, .. } if troops[0].count == 2))
    );
    // A fleet with ships left is not sunk.
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    let mut turn = Turn::new(&map, &s, &orders.0).unwrap();
    sea::sunk(&mut turn, when, &(k("FRA"), u("F1")));
    assert!(turn.state.unit(&k("FRA"), u("F1")).is_some());
}

#[test]
fn a_turn_of_sea_battles_replays_to_the_same_bytes() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 2), ("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("MAR", 2), ("LIN", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    s.unit_mut(&k("FRA"), u("A1")).unwrap().marines = true;
    place(&mut s, "GBR", "F1", NSE, &[("WAR", 3)]);
    let mut o = Orders::new();
    o.route("GBR", "F1", &[CHA]);
    o.route("FRA", "F1", &[NSE]);
    let run = || {
        let out = napoleonic_rules::play(&map, &s, &o.0).unwrap();
        (
            serde_json::to_string(&out.state).unwrap(),
            serde_json::to_string(&out.events).unwrap(),
        )
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.1.contains("\"sea_border\""));
}

// ---------------------------------------------------------------------------------------
// Soldiers aboard a fleet of a kingdom turned enemy (4.6, the treachery case); fleets in a
// harbour (N1); artillery lost at sea (7.5).

fn infantry_general(name: &str, infantry: u32) -> Leader {
    Leader {
        infantry,
        combat: 30,
        attacks: 2,
        ..admiral(name, 0)
    }
}

#[test]
fn treachery_every_soldier_on_an_enemy_deck_fights_its_crew_and_the_ship_cannot_flee() {
    let t = Tables::standard();
    let mut b = at_sea();
    // A British transport (no marine capacity) carries three French line infantry and
    // their general; France and Britain are at war now. The transport stands in rank 2
    // with retreat level 1, so it would flee after the first round if it could.
    let mut f = unit("GBR", "F1", &[("TRN", 1, 2)]);
    f.retreat_level = 1;
    let fi = b.add_unit(1, &f, &t, fleet());
    let mut army = unit("FRA", "A1", &[("LIN", 3, 1)]);
    army.leaders.push(infantry_general("Ney", 40));
    army.unit_leader = Some(0);
    let ai = b.add_boarders(0, &army, fi, &t);
    // Round by round: the transport's one attack, then the three infantry and Ney.
    let mut d = Scripted::new(60)
        .chances(
            Draw::Hit,
            [hits(0, 1), hits(8, 0), hits(0, 1), hits(8, 0)].concat(),
        )
        .chances(Draw::Capture, [true]);
    let rep = b.fight(&mut d);
    // All of them fight, whatever the capacity: 4 fighters, the infantry at
    // (30 + 30 × 40 / 200) × 0.7 = 25.2 % (the leader's tactics and the marine modifier),
    // Ney on his own 30 %.
    assert_eq!(caused_by(&rep, 1, "FRA", "A1"), 4);
    let chances = asked(&d, Draw::Hit);
    assert_eq!(
        &chances[..9],
        &[500, 2_520, 2_520, 2_520, 2_520, 2_520, 2_520, 3_000, 3_000]
    );
    let ur = rep.unit(&(k("FRA"), u("A1"))).unwrap();
    assert!(ur.on_enemy_deck);
    assert_eq!(ur.aboard, Some((k("GBR"), u("F1"))));
    // It cannot sail away from the enemies on its deck; the soldiers hold the field
    // though they have no ships, and win.
    assert!(rep.rounds.iter().all(|r| r.retreats.is_empty()));
    assert_eq!(rep.rounds.len(), 2);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
    // The sunk transport may be taken: by the soldiers, there being no French fleet.
    assert_eq!(asked(&d, Draw::Capture), vec![2_000]);
    assert_eq!(b.fighters[0].captured_by, Some(ai));
}

#[test]
fn treachery_at_sea_the_winning_soldiers_sail_off_in_the_ships_they_take() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    s.tables.troops.get_mut(&tc("TRN")).unwrap().capture = 100;
    place(&mut s, "GBR", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("GRE", 2)]);
    board(&mut s, "FRA", "A1", "GBR", "F1");
    let out = play(&map, &s, &Orders::new());
    let (p, rep) = out.fought()[0];
    assert_eq!((p, rep.kind, rep.at), (1, BattleKind::Sea, LocId(CHA)));
    assert!(rep.unit(&(k("FRA"), u("A1"))).unwrap().on_enemy_deck);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
    // The transport taken forms a French fleet, and the grenadiers go aboard it.
    assert!(!out.has("GBR", "F1"));
    assert_eq!(out.unit("FRA", "F1").count(&tc("TRN")), 1);
    assert_eq!(out.at("FRA", "F1"), CHA);
    assert_eq!(out.unit("FRA", "A1").aboard, Some((k("FRA"), u("F1"))));
    assert_eq!(out.unit("FRA", "A1").troops.len(), 2);
}

#[test]
fn treachery_at_sea_soldiers_who_take_nothing_go_down_with_the_ship_and_losers_die() {
    // The soldiers win but take no ship: their ship is sunk under them and they are lost
    // at sea (no fleet of theirs is there, and they never board an enemy's).
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    s.tables.troops.get_mut(&tc("TRN")).unwrap().capture = 0;
    place(&mut s, "GBR", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "GBR", "F2", NSE, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("GRE", 4)]);
    board(&mut s, "FRA", "A1", "GBR", "F1");
    let out = play(&map, &s, &Orders::new());
    assert_eq!(out.fought()[0].1.winning_kingdoms(), vec![k("FRA")]);
    assert!(!out.has("GBR", "F1") && !out.has("FRA", "A1"));
    assert_eq!(
        out.count(|w| matches!(w, What::Overboard { troops, .. } if troops[0].count == 4)),
        1
    );
    // Militia against three warships: the crew wins and the army is gone.
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "GBR", "F1", CHA, &[("WAR", 3)]);
    place(&mut s, "FRA", "A1", CHA, &[("MIL", 1)]);
    board(&mut s, "FRA", "A1", "GBR", "F1");
    let out = play(&map, &s, &Orders::new());
    assert_eq!(out.fought()[0].1.winning_kingdoms(), vec![k("GBR")]);
    assert!(!out.has("FRA", "A1"));
    assert_eq!(out.unit("GBR", "F1").troops.len(), 3);
}

#[test]
fn treachery_in_a_harbour_is_fought_by_that_fleet_and_its_passengers_alone() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    s.tables.troops.get_mut(&tc("TRN")).unwrap().capture = 0;
    // Flanders is Austrian, neutral to both: British and French fleets lie in its harbour.
    place(&mut s, "GBR", "F1", FLA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", FLA, &[("GRE", 4)]);
    board(&mut s, "FRA", "A1", "GBR", "F1");
    place(&mut s, "GBR", "F2", FLA, &[("WAR", 1)]);
    place(&mut s, "FRA", "F1", FLA, &[("WAR", 2)]);
    let out = play(&map, &s, &Orders::new());
    let fought = out.fought();
    assert_eq!(fought.len(), 1, "{fought:#?}");
    let (_, rep) = fought[0];
    assert_eq!((rep.kind, rep.at), (BattleKind::Sea, LocId(FLA)));
    let who: Vec<_> = rep.units.iter().map(|x| x.unit.clone()).collect();
    assert_eq!(who, vec![(k("GBR"), u("F1")), (k("FRA"), u("A1"))]);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
    // In port the soldiers of the sunk ship step ashore; the other fleets are untouched.
    assert!(!out.has("GBR", "F1"));
    let a1 = out.unit("FRA", "A1");
    assert_eq!((a1.location, a1.aboard.clone()), (LocId(FLA), None));
    assert_eq!(out.unit("GBR", "F2").troops.len(), 1);
    assert_eq!(out.unit("FRA", "F1").troops.len(), 2);
}

#[test]
fn n1_enemy_fleets_docked_in_one_harbour_do_not_fight() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "FRA", "F1", FLA, &[("WAR", 2)]);
    place(&mut s, "GBR", "F1", FLA, &[("WAR", 2)]);
    let out = play(&map, &s, &Orders::new());
    assert!(out.fought().is_empty());
    assert_eq!(out.battles(), vec![]);
    assert_eq!((out.at("FRA", "F1"), out.at("GBR", "F1")), (FLA, FLA));
    // Out in the Channel they do.
    let mut o = Orders::new();
    o.route("FRA", "F1", &[CHA]);
    o.route("GBR", "F1", &[0, CHA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.fought()[0].1.at, LocId(CHA));
}

#[test]
fn an_army_never_boards_an_enemy_fleet() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "GBR", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", NOR, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 1).prepare_board = Some(k("GBR"));
    o.phase("GBR", "F1", 2).load.push((Some(k("FRA")), u("A1")));
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["GBR F1", "load", "at war"]));
    assert_eq!(out.unit("FRA", "A1").aboard, None);
}

#[test]
fn artillery_lost_at_sea_is_taken_one_time_in_five_by_the_victors_soldiers() {
    let t = Tables::standard();
    let battle = |with_marines: bool| {
        let mut b = at_sea();
        let ff = b.add_unit(0, &unit("FRA", "F1", &[("WAR", 3, 2)]), &t, fleet());
        if with_marines {
            b.add_marines(0, &unit("FRA", "A1", &[("MAR", 2, 1)]), ff, &t);
        }
        let gf = b.add_unit(
            1,
            &unit("GBR", "F1", &[("WAR", 1, 2)]),
            &t,
            Setup::default(),
        );
        b.add_marines(1, &unit("GBR", "A1", &[("ART", 1, 1)]), gf, &t);
        let french = if with_marines { 10 } else { 6 };
        let mut d = Scripted::new(61)
            .chances(Draw::Hit, [hits(french, 4), hits(french, 4)].concat())
            .chances(Draw::Capture, [false, true]);
        let rep = b.fight(&mut d);
        (b, rep, d)
    };
    // The British warship (10 %) and the artillery on its deck (20 %) both fall.
    let (b, rep, d) = battle(true);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
    assert_eq!(asked(&d, Draw::Capture), vec![1_000, 2_000]);
    let art = b
        .fighters
        .iter()
        .position(|f| f.who == napoleonic_rules::battle::report::Who::Troop(tc("ART")))
        .unwrap();
    assert_eq!(
        b.fighters[art].captured_by,
        Some(1),
        "the French marines take it"
    );
    assert_eq!(rep.captured[0].to, (k("FRA"), u("A1")));
    // With no French soldiers on the field, the fleet takes it aboard.
    let (b, rep, _) = battle(false);
    let art = b.fighters.len() - 1;
    assert_eq!(b.fighters[art].captured_by, Some(0));
    assert_eq!(rep.captured[0].to, (k("FRA"), u("F1")));
}

#[test]
fn captured_artillery_joins_the_victors_marines_or_a_new_army_aboard() {
    for with_marines in [true, false] {
        let (map, mut s) = world();
        set_war(&mut s, "FRA", "GBR");
        s.tables.troops.get_mut(&tc("ART")).unwrap().capture = 100;
        s.tables.troops.get_mut(&tc("WAR")).unwrap().capture = 0;
        place(&mut s, "FRA", "F1", CHA, &[("WAR", 4)]);
        if with_marines {
            place(&mut s, "FRA", "A1", CHA, &[("MAR", 2)]);
            board(&mut s, "FRA", "A1", "FRA", "F1");
            s.unit_mut(&k("FRA"), u("A1")).unwrap().marines = true;
        }
        place(&mut s, "GBR", "F1", CHA, &[("TRN", 1)]);
        place(&mut s, "GBR", "A1", CHA, &[("ART", 1)]);
        board(&mut s, "GBR", "A1", "GBR", "F1");
        s.unit_mut(&k("GBR"), u("A1")).unwrap().marines = true;
        // A transport has no marine capacity: the artillery would wait below decks. A
        // warship beside it gives room on deck.
        s.unit_mut(&k("GBR"), u("F1")).unwrap().troops.push(Troop {
            code: tc("WAR"),
            rank: 2,
            mp: 3,
            damage: Fixed::ZERO,
        });
        let out = play(&map, &s, &Orders::new());
        let (_, rep) = out.fought()[0];
        assert_eq!(rep.winning_kingdoms(), vec![k("FRA")], "{with_marines}");
        assert!(rep.captured.iter().any(|c| c.troop == tc("ART")));
        let holder = out
            .state
            .units
            .iter()
            .find(|x| x.owner == k("FRA") && x.count(&tc("ART")) == 1)
            .expect("the artillery is French now");
        assert_eq!(holder.aboard, Some((k("FRA"), u("F1"))));
        assert_eq!(holder.id, u("A1"));
        let formed = out.count(|w| matches!(w, What::UnitFormed { by, .. } if *by == u("F1")));
        assert_eq!(
            formed,
            usize::from(!with_marines),
            "a new army aboard the fleet"
        );
    }
}
