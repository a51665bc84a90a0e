//! Every order form reads into exactly the structure the engine takes, with its place.
use crate::common;
use common::*;
use napoleonic_orders::Span;
use napoleonic_rules::fixed::Fixed;
use napoleonic_rules::ids::{LocId, TroopCode, UnitId};
use napoleonic_rules::orders::{
    Admin, HqOrder, KingdomOrders, PhasePlan, RankOrder, Step, Structure, Transfer, TroopCount,
    UnitOrders,
};

fn tc(n: u32, code: &str) -> TroopCount {
    TroopCount {
        code: TroopCode(code.into()),
        count: n,
    }
}

const EVERY_FORM: &str = r#"GAME "Tiny Europe"  KINGDOM FRA  TURN 1
# Every order there is.
HQ
  DECLARE WAR ON PRU
  OFFER PEACE TO AUS
  OFFER ALLIANCE TO BAV
  CANCEL ALLIANCE WITH SAX
  ACCEPT GIFTS FROM SPA
  ACCEPT NOTHING FROM POR
  GRANT PASSAGE TO BAV
  REVOKE PASSAGE FROM BRI
  GRANT PERMISSION IN ALS TO BAV
  REVOKE PERMISSION IN 2 FROM BAV
  SEND 50 GOLD TO AUS
  SEND 12.5 GOLD TO BAV
  ANNEX BUR
  GIVE PIC TO HOL
  SEND AMBASSADOR TO RUS
PROCLAMATION
  Long live the Emperor!
  # this line is part of the text
END
A1 "Grande Armée"
  RETREAT 3
  FOLLOW A2
  MARINES ON
  LEADER "General 1 of France"
  FORM ARMY A5 "Reserve"
  TRANSFER 4 LIN, 1 ART TO A5
  TRANSFER 1 CUI, LEADER "Ney" TO BAV A2
  RANKS LIN 2 2 0 0 0, CUI 0 0 0 1 1
  DISBAND 2 MIL
  SALVAGE 1 ART
  1: MOVE BUR
  2: MOVE ALS; PILLAGE
  3: HOLD
  4: TRANSFER 2 LIN TO A2; DEFEND ON
  5: PREPARE TO BOARD FOR BRI; DEFEND OFF
A2
  FOLLOW NONE
  MARINES OFF
F1
  FORM FLEET F3 "Channel"
  SCUTTLE 1 TRN
  1: LOAD A1; MOVE ENC
  2: MOVE BRE; UNLOAD A1 AT PIC
  3: LOAD BAV A2, A1
  3: MOVE ENC
  3: LOAD AFTER A3
  4: UNLOAD BAV A2, A1 AT KEN
G1
  RECRUIT 4 LIN, 2 CUI
  HIRE LEADER
  BUILD FORTIFICATION
  REPAIR
  RAZE HARBOUR
GBRE
  BUILD HARBOUR
  RAZE FORTIFICATION
"#;

fn expected() -> KingdomOrders {
    let a = UnitId::army;
    let mut a1 = UnitOrders::new(a(1));
    a1.admin = vec![
        Admin::Rename {
            name: "Grande Armée".into(),
        },
        Admin::RetreatLevel { rank: 3 },
        Admin::Follow { unit: Some(a(2)) },
        Admin::Marines { board: true },
        Admin::Leader {
            name: "General 1 of France".into(),
        },
    ];
    a1.form = vec![(a(5), "Reserve".into())];
    a1.transfers = vec![
        Transfer {
            troops: vec![tc(4, "LIN"), tc(1, "ART")],
            leaders: vec![],
            to_kingdom: None,
            to: a(5),
        },
        Transfer {
            troops: vec![tc(1, "CUI")],
            leaders: vec!["Ney".into()],
            to_kingdom: Some(k("BAV")),
            to: a(2),
        },
    ];
    a1.ranks = vec![
        RankOrder {
            code: TroopCode("LIN".into()),
            ranks: [2, 2, 0, 0, 0],
        },
        RankOrder {
            code: TroopCode("CUI".into()),
            ranks: [0, 0, 0, 1, 1],
        },
    ];
    a1.disband = vec![tc(2, "MIL")];
    a1.salvage = vec![tc(1, "ART")];
    a1.plan = vec![
        PhasePlan {
            phase: 1,
            step: Some(Step::Move(LocId(2))),
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 2,
            step: Some(Step::Move(LocId(4))),
            pillage: true,
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 3,
            step: Some(Step::Hold),
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 4,
            transfers: vec![Transfer {
                troops: vec![tc(2, "LIN")],
                leaders: vec![],
                to_kingdom: None,
                to: a(2),
            }],
            defend: Some(true),
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 5,
            prepare_board: Some(k("BRI")),
            defend: Some(false),
            ..PhasePlan::default()
        },
    ];
    let mut a2 = UnitOrders::new(a(2));
    a2.admin = vec![
        Admin::Follow { unit: None },
        Admin::Marines { board: false },
    ];
    let mut f1 = UnitOrders::new(UnitId::fleet(1));
    f1.form = vec![(UnitId::fleet(3), "Channel".into())];
    f1.disband = vec![tc(1, "TRN")];
    f1.plan = vec![
        PhasePlan {
            phase: 1,
            load: vec![(None, a(1))],
            step: Some(Step::Move(LocId(50))),
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 2,
            step: Some(Step::Move(LocId(7))),
            unload: vec![(None, a(1), LocId(3))],
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 3,
            load: vec![(Some(k("BAV")), a(2)), (None, a(1))],
            step: Some(Step::Move(LocId(50))),
            load_after: vec![(None, a(3))],
            ..PhasePlan::default()
        },
        PhasePlan {
            phase: 4,
            unload: vec![(Some(k("BAV")), a(2), LocId(8)), (None, a(1), LocId(8))],
            ..PhasePlan::default()
        },
    ];
    let mut g1 = UnitOrders::new(UnitId::garrison(LocId(1)));
    g1.recruit = vec![tc(4, "LIN"), tc(2, "CUI")];
    g1.hire_leader = true;
    g1.build = Some(Structure::Fortification);
    g1.repair = true;
    g1.raze = Some(Structure::Harbour);
    let mut g7 = UnitOrders::new(UnitId::garrison(LocId(7)));
    g7.build = Some(Structure::Harbour);
    g7.raze = Some(Structure::Fortification);
    KingdomOrders {
        hq: vec![
            HqOrder::DeclareWar { to: k("PRU") },
            HqOrder::OfferPeace { to: k("AUS") },
            HqOrder::OfferAlliance { to: k("BAV") },
            HqOrder::CancelAlliance { to: k("SAX") },
            HqOrder::Acceptance {
                from: k("SPA"),
                accept: true,
            },
            HqOrder::Acceptance {
                from: k("POR"),
                accept: false,
            },
            HqOrder::GrantPassage { to: k("BAV") },
            HqOrder::RevokePassage { to: k("BRI") },
            HqOrder::GrantPermission {
                province: LocId(4),
                to: k("BAV"),
            },
            HqOrder::RevokePermission {
                province: LocId(2),
                to: k("BAV"),
            },
            HqOrder::SendGold {
                to: k("AUS"),
                amount: Fixed::whole(50),
            },
            HqOrder::SendGold {
                to: k("BAV"),
                amount: Fixed(1250),
            },
            HqOrder::Annex { province: LocId(2) },
            HqOrder::GiveProvince {
                province: LocId(3),
                to: k("HOL"),
            },
            HqOrder::SendAmbassador { to: k("RUS") },
        ],
        units: vec![a1, a2, f1, g1, g7],
        proclamation: Some("Long live the Emperor!\n# this line is part of the text".into()),
    }
}

#[test]
fn every_order_form_reads_into_the_exact_structure() {
    let sheet = read(EVERY_FORM);
    assert!(sheet.diagnostics.is_empty(), "{:#?}", sheet.diagnostics);
    let want = expected();
    assert_eq!(sheet.orders.hq, want.hq);
    assert_eq!(sheet.orders.proclamation, want.proclamation);
    for (got, want) in sheet.orders.units.iter().zip(&want.units) {
        assert_eq!(got, want, "{}", want.unit);
    }
    assert_eq!(sheet.orders, want);
}

#[test]
fn the_header_is_read_with_its_places() {
    let sheet = read(EVERY_FORM);
    let h = &sheet.header;
    assert_eq!(h.game.as_ref().unwrap().value, "Tiny Europe");
    assert_eq!(h.kingdom.as_ref().unwrap().value, k("FRA"));
    assert_eq!(h.kingdom.as_ref().unwrap().span, Span::new(1, 29, 3));
    assert_eq!(h.turn.as_ref().unwrap().value, 1);
    // The header may also be spread over lines, and the game's name left unquoted.
    let sheet = read("GAME Tiny Europe\nKINGDOM fra\nTURN 4\n");
    assert!(sheet.diagnostics.is_empty(), "{:#?}", sheet.diagnostics);
    assert_eq!(sheet.header.game.unwrap().value, "Tiny Europe");
    assert_eq!(sheet.header.kingdom.unwrap().value, k("FRA"));
    assert_eq!(sheet.header.turn.unwrap().value, 4);
}

#[test]
fn every_order_keeps_the_line_and_columns_it_was_written_at() {
    let sheet = read(EVERY_FORM);
    let s = &sheet.spans;
    // DECLARE WAR ON PRU, line 4: the order from column 3, PRU at 18.
    assert_eq!(s.hq[0].at, Span::new(4, 3, 18));
    assert_eq!(s.hq[0].args, vec![Span::new(4, 18, 3)]);
    // GRANT PERMISSION IN ALS TO BAV: the province, then the kingdom.
    assert_eq!(
        s.hq[8].args,
        vec![Span::new(12, 23, 3), Span::new(12, 30, 3)]
    );
    // SEND 50 GOLD TO AUS: the kingdom, then the amount.
    assert_eq!(
        s.hq[10].args,
        vec![Span::new(14, 19, 3), Span::new(14, 8, 2)]
    );
    assert_eq!(s.proclamation, Some(Span::new(19, 1, 12)));
    let a1 = &s.units[0];
    assert_eq!(a1.header, Span::new(23, 1, 2));
    // The new name is the first administrative order, where the quotes are.
    assert_eq!(a1.admin[0].at, Span::new(23, 4, 14));
    assert_eq!(a1.admin[1].args, vec![Span::new(24, 11, 1)]);
    // TRANSFER 1 CUI, LEADER "Ney" TO BAV A2: the receiver, then each part.
    assert_eq!(
        a1.transfers[1].args,
        vec![
            Span::new(30, 35, 6),
            Span::new(30, 12, 5),
            Span::new(30, 19, 12)
        ]
    );
    assert_eq!(a1.ranks[1].args[0], Span::new(31, 24, 3));
    assert_eq!(
        a1.disband[0].args,
        vec![Span::new(32, 11, 1), Span::new(32, 13, 3)]
    );
    // 2: MOVE ALS; PILLAGE
    let p2 = &a1.phases[1];
    assert_eq!(p2.label, Span::new(35, 3, 2));
    assert_eq!(p2.step.as_ref().unwrap().args, vec![Span::new(35, 11, 3)]);
    assert_eq!(p2.pillage.as_ref().unwrap().at, Span::new(35, 16, 7));
    // F1 phase 4: UNLOAD BAV A2, A1 AT KEN: each army with the province.
    let f1 = &s.units[2];
    let p4 = &f1.phases[3];
    assert_eq!(
        p4.unload[0].args,
        vec![Span::new(50, 13, 6), Span::new(50, 27, 3)]
    );
    assert_eq!(
        p4.unload[1].args,
        vec![Span::new(50, 21, 2), Span::new(50, 27, 3)]
    );
    // The spans run parallel to the orders.
    for (u, us) in sheet.orders.units.iter().zip(&s.units) {
        assert_eq!(u.plan.len(), us.phases.len());
        assert_eq!(u.admin.len(), us.admin.len());
        assert_eq!(u.recruit.len(), us.recruit.len());
        for (p, ps) in u.plan.iter().zip(&us.phases) {
            assert_eq!(p.load.len(), ps.load.len());
            assert_eq!(p.unload.len(), ps.unload.len());
            assert_eq!(p.load_after.len(), ps.load_after.len());
            assert_eq!(p.transfers.len(), ps.transfers.len());
        }
    }
}

#[test]
fn keywords_are_read_in_any_case_and_short_forms_are_understood() {
    let plain = read(
        "HQ\nDECLARE WAR ON PRU\nGRANT PERMISSION IN BUR TO BAV\nGIVE PIC TO BRI\n\
         A1\nRETREAT 2\n1: MOVE BUR\n2: HOLD\n3: DEFEND ON\nF1\n1: MOVE ENC\n\
         G7\nBUILD HARBOUR\nRAZE FORTIFICATION\n",
    );
    let loose = read(
        "hq\n  declare war pru    # no ON\n  grant permission to bav in bur\n  \
         give province pic bri\n\
         a1\n  retreat level 2\n  1 march Burgundy\n  2) hold position\n  3. defend fortifications on\n\
         f1\n  1: sail \"English Channel\"\n\
         g7\n  build harbor\n  raze fort\n",
    );
    assert!(plain.diagnostics.is_empty(), "{:#?}", plain.diagnostics);
    assert!(loose.diagnostics.is_empty(), "{:#?}", loose.diagnostics);
    assert_eq!(plain.orders, loose.orders);
}

#[test]
fn several_orders_share_a_line_and_a_phase_may_take_several_lines() {
    let one = read(
        "HQ\nOFFER PEACE TO PRU; SEND AMBASSADOR TO PRU\nA1\nRETREAT 2; MARINES ON\n1: MOVE BUR; PILLAGE\n",
    );
    let many = read(
        "HQ\nOFFER PEACE TO PRU\nSEND AMBASSADOR TO PRU\nA1\nRETREAT 2\nMARINES ON\n1: MOVE BUR\n1: PILLAGE\n",
    );
    assert!(one.diagnostics.is_empty() && many.diagnostics.is_empty());
    assert_eq!(one.orders, many.orders);
}

#[test]
fn phases_are_kept_in_order_whatever_order_they_are_written_in() {
    let sheet = read("A1\n3: HOLD\n1: MOVE BUR\n2: MOVE ALS\n");
    let phases: Vec<u8> = sheet.orders.units[0].plan.iter().map(|p| p.phase).collect();
    assert_eq!(phases, vec![1, 2, 3]);
    assert_eq!(sheet.spans.units[0].phases[0].label.line, 3);
}

#[test]
fn a_unit_written_twice_has_its_orders_put_together() {
    let sheet = read("A1\n1: MOVE BUR\nA2\n1: HOLD\nA1\n2: MOVE ALS\n");
    assert_eq!(sheet.orders.units.len(), 2);
    assert_eq!(sheet.orders.units[0].plan.len(), 2);
    assert_eq!(sheet.diagnostics.len(), 1);
    assert_eq!(sheet.diagnostics[0].code.as_str(), "W001");
}

#[test]
fn proclamations_on_one_line_or_in_a_block_and_an_empty_one_is_none() {
    let one = read("PROCLAMATION \"Peace in our time\"\n");
    assert_eq!(
        one.orders.proclamation.as_deref(),
        Some("Peace in our time")
    );
    let block = read("PROCLAMATION   # the text follows\n  Peace\n\n  in our time\nend\n");
    assert_eq!(
        block.orders.proclamation.as_deref(),
        Some("Peace\n\nin our time")
    );
    let empty = read("PROCLAMATION\nEND\nHQ\n");
    assert_eq!(empty.orders.proclamation, None);
    assert!(empty.diagnostics.is_empty());
}

#[test]
fn locations_by_number_code_or_name_and_garrisons_by_number_or_code() {
    let a = read(
        "A1\n1: MOVE 2\nA2\n1: MOVE bur\nA3\n1: MOVE burgundy\nG7\nREPAIR\nGBRE\nHIRE\ng7\nHIRE\n",
    );
    let steps: Vec<_> = a.orders.units[..3].iter().map(|u| u.plan[0].step).collect();
    assert_eq!(steps, vec![Some(Step::Move(LocId(2))); 3]);
    // G7, GBRE and g7 are one garrison: the second and third headings add to the first.
    assert_eq!(a.orders.units.len(), 4);
    assert_eq!(a.orders.units[3].unit, UnitId::garrison(LocId(7)));
    assert!(a.orders.units[3].hire_leader);
}

#[test]
fn a_byte_order_mark_and_any_line_ends_are_accepted() {
    let sheet = read("\u{feff}A1\r\n1: MOVE BUR\r2: HOLD\n");
    assert!(sheet.diagnostics.is_empty(), "{:#?}", sheet.diagnostics);
    assert_eq!(sheet.orders.units[0].plan.len(), 2);
    assert_eq!(sheet.spans.units[0].phases[1].label.line, 3);
}
