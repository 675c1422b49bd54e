//! The arbiter watching the board: positions that come back (the 棋例 engine called, orders to
//! change, rounds to wait), the natural move limit and draw offers.

use super::*;

impl Game<'_> {
    /// A position that has come back as often as `repetition.cycle` says (after a ruling:
    /// as often again as it says) is pending (待判局面): the 棋例 rule on the last cycle, and
    /// the verdict is applied as a `repetition` event's would be.
    pub(super) fn watch_board(&mut self, i: usize) {
        let Some(rep) = self.rep else { return };
        let Some(p) = rep.pending() else { return };
        if self.end.is_some() || !self.candidates.is_empty() {
            return;
        }
        let h = &self.history;
        let (from, need) = match h.ruled_at {
            Some(r) => (r, p.after_ruling),
            None => (0, p.cycles),
        };
        if h.returns(from) < need as usize {
            return;
        }
        let positions = h.positions(self.vm);
        let ruling = crate::repetition::rule_line(self.vm, rep, &positions, &h.moves);
        self.history.ruled_at = Some(self.history.len() - 1);
        let cycle = ruling
            .cycle
            .map(|(a, b)| format!("plies {}–{}", a + self.history.ply0, b + self.history.ply0))
            .unwrap_or_default();
        let sides = ruling
            .patterns
            .as_ref()
            .map(|ps| {
                Side::BOTH
                    .iter()
                    .map(|s| {
                        let p = &ps[s.index()];
                        format!(
                            "{} {} ({})",
                            s.name(),
                            p.zh,
                            crate::repetition::ruling::status_name(p.status)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let verdict_rule = if ruling.verdict == Verdict::None {
            None
        } else {
            ruling.clauses.last()
        };
        let note = format!(
            "{cycle} repeat ({}): {sides}; verdict {}",
            p.rule.clause,
            ruling.verdict.name()
        );
        self.by = Some((i, By::Board, Some(ruling.basis.clone())));
        self.rule(Ruling::new(i, Decision::PendingPosition, verdict_rule, None).note(note));
        self.repetition(i, ruling.verdict);
    }

    /// A ruling waiting for its rounds to change: a position off the cycle lifts it (a side
    /// changed); the repetition gone on to the end of the rounds, the ruling takes effect.
    pub(super) fn watch_deadline(&mut self, i: usize) {
        let Some(d) = self.deadline.clone() else {
            return;
        };
        let j = self.history.len() - 1;
        if !self.history.goes_on(j, d.cycle) {
            self.deadline = None;
            return;
        }
        if j < d.at {
            return;
        }
        self.deadline = None;
        self.by = Some((i, d.by, d.basis));
        match d.order {
            Some((s, clause)) => self.refused(i, s, &clause),
            None => self.fire(i, Trigger::RepetitionDraw, None, &[], Detail::default()),
        }
    }

    /// The rounds to change of the result clause observing `when`, and its clause, when the
    /// rule set gives them.
    pub(super) fn rounds_to_change(&self, when: Trigger) -> Option<(u32, RuleRef)> {
        self.rules
            .result(when)
            .and_then(|r| r.rounds_to_change.map(|n| (n, r.clause.clone())))
    }

    /// Waits `rounds` rounds for a change before the ruling takes effect, when the last
    /// position closes a cycle on the board; `false` when none does (the ruling of an
    /// arbiter's `repetition` event on moves that do not repeat).
    pub(super) fn wait(&mut self, i: usize, rounds: u32, order: Option<(Side, RuleRef)>) -> bool {
        let Some(cycle) = self.history.cycle() else {
            return false;
        };
        let (by, basis) = match &self.by {
            Some((e, by, basis)) if *e == i => (*by, basis.clone()),
            _ => (By::Arbiter, None),
        };
        self.deadline = Some(Deadline {
            at: self.history.len() - 1 + 2 * rounds as usize,
            cycle,
            order,
            by,
            basis,
        });
        true
    }

    /// The natural move limit reached: declared as a claim of the side to move would find it.
    pub(super) fn declare_natural_limit(&mut self, i: usize) {
        let Some((c, nl)) = self.rules.natural_limit.as_ref() else {
            return;
        };
        let rounds = self.limit_rounds(Some(self.stm()));
        if rounds < nl.rounds {
            return;
        }
        let mut r = Ruling::new(i, Decision::LimitReached, Some(c), None)
            .note(format!("{rounds} of {} rounds counted", nl.rounds));
        r.rounds = Some(rounds);
        self.rule(r);
        self.fire(i, Trigger::NaturalLimit, None, &[], Detail::default());
    }

    /// The rounds counted for the natural move limit on a claim by `claimant` (or the
    /// arbiter's count, `None`): the fewer of the two sides' moves since the last capture,
    /// less the checks beyond those counted.
    pub(super) fn limit_rounds(&self, claimant: Option<Side>) -> u32 {
        let Some((_, nl)) = self.rules.natural_limit.as_ref() else {
            return 0;
        };
        let capped = |s: Side| match (claimant, nl.checks_of) {
            (Some(cl), ChecksOf::Claimant) => cl == s,
            _ => true,
        };
        Side::BOTH
            .iter()
            .map(|&s| {
                self.since_capture[s.index()]
                    - if capped(s) {
                        self.checks[s.index()].saturating_sub(nl.checks_counted)
                    } else {
                        0
                    }
            })
            .min()
            .unwrap_or(0)
    }

    pub(super) fn offer(&mut self, i: usize, s: Side) {
        if let Some((c, rounds)) = self.rules.early_offer.clone() {
            if self.pos.fullmove_number() <= rounds {
                self.rule(
                    Ruling::new(i, Decision::OfferVoid, Some(&c), Some(s)).note(format!(
                        "round {} is within the first {rounds}",
                        self.pos.fullmove_number()
                    )),
                );
                return;
            }
        }
        self.offers[s.index()] += 1;
        let was_refused = self.refused[s.index()];
        self.refused = [false; 2];
        self.pending_offer = Some(s);
        let excess = self.offers[s.index()].saturating_sub(self.offers[s.opponent().index()]);
        self.fire(
            i,
            Trigger::DrawOffer,
            Some(s),
            &[],
            Detail {
                excess,
                was_refused,
                ..Detail::default()
            },
        );
    }

    /// A natural-move-limit claim by `claimant`, or the arbiter's own count (`None`).
    pub(super) fn natural_limit(
        &mut self,
        i: usize,
        claimant: Option<Side>,
    ) -> Result<(), ArbiterError> {
        let Some((c, nl)) = self.rules.natural_limit.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, claimant));
            return Ok(());
        };
        let c = c.clone();
        match claimant {
            Some(s) if nl.claim_by == ClaimBy::SideToMove && s != self.stm() => {
                return Err(not_on_move(s, "claim the natural move limit"));
            }
            None if !nl.arbiter_may_declare => {
                self.rule(Ruling::new(i, Decision::NotRegulated, Some(&c), None).note("the arbiter does not declare the natural move limit unclaimed in this rule set"));
                return Ok(());
            }
            _ => {}
        }
        let rounds = self.limit_rounds(claimant);
        if rounds >= nl.rounds {
            let mut r = Ruling::new(i, Decision::LimitReached, Some(&c), claimant)
                .note(format!("{rounds} of {} rounds counted", nl.rounds));
            r.rounds = Some(rounds);
            self.rule(r);
            self.fire(i, Trigger::NaturalLimit, None, &[], Detail::default());
            return Ok(());
        }
        let mut r = Ruling::new(
            i,
            if claimant.is_some() {
                Decision::ClaimUntrue
            } else {
                Decision::LimitNotReached
            },
            Some(&c),
            claimant,
        )
        .note(format!("{rounds} of {} rounds counted", nl.rounds));
        r.rounds = Some(rounds);
        self.rule(r);
        if let Some(s) = claimant {
            if let Some(minutes) = nl.false_claim_penalty_minutes {
                let mut r = Ruling::new(i, Decision::DeductTime, Some(&c), Some(s));
                r.seconds = Some(minutes * 60);
                self.rule(r);
            }
            self.fire(
                i,
                Trigger::FalseNaturalLimitClaim,
                Some(s),
                &[],
                Detail::default(),
            );
        }
        Ok(())
    }

    /// A 棋例 ruling: what happens next under this rule set.
    pub(super) fn repetition(&mut self, i: usize, v: Verdict) {
        match v {
            Verdict::RedLoses | Verdict::BlackLoses => {
                let s = if v == Verdict::RedLoses {
                    Side::Red
                } else {
                    Side::Black
                };
                self.fire(i, Trigger::PerpetualCheck, Some(s), &[], Detail::default());
            }
            Verdict::RedMustChange | Verdict::BlackMustChange => {
                let s = if v == Verdict::RedMustChange {
                    Side::Red
                } else {
                    Side::Black
                };
                let c = self
                    .rules
                    .result(Trigger::ChangeRefused)
                    .map(|r| r.clause.clone());
                self.order(i, s, c);
            }
            // No repetition was found to rule on: nothing follows.
            Verdict::None => {}
            Verdict::Draw => {
                // The round of the move that completed the cycle.
                let round = self.pos.fullmove_number() - u32::from(self.stm() == Side::Red);
                match self.rules.early_repetition.clone() {
                    Some((c, rounds, s)) if round <= rounds => self.order(i, s, Some(c)),
                    _ => match self.rounds_to_change(Trigger::RepetitionDraw) {
                        Some((n, c)) if self.wait(i, n, None) => {
                            let mut r = Ruling::new(i, Decision::Deferred, Some(&c), None).note(
                                format!("a draw if the repetition goes on {n} more rounds: either side may change"),
                            );
                            r.rounds = Some(n);
                            self.rule(r);
                        }
                        _ => self.fire(i, Trigger::RepetitionDraw, None, &[], Detail::default()),
                    },
                }
            }
        }
    }

    /// `s`, under an order to change by `by`, has not changed: a loss by the order's own
    /// clause (4.3), else by the clause observing a refused change.
    pub(super) fn refused(&mut self, i: usize, s: Side, by: &RuleRef) {
        if self
            .rules
            .early_repetition
            .as_ref()
            .is_some_and(|(c, _, _)| c.clause == by.clause)
        {
            self.end_by(by, ResultKind::Loss, Some(s));
        } else {
            self.fire(i, Trigger::ChangeRefused, Some(s), &[], Detail::default());
        }
    }

    /// Orders `s` to change; a side already ordered (since the last capture) did not change.
    pub(super) fn order(&mut self, i: usize, s: Side, clause: Option<RuleRef>) {
        match self.orders[s.index()].clone() {
            Some(by) => self.refused(i, s, &by),
            None => {
                let by = clause.unwrap_or(RuleRef {
                    clause: String::new(),
                    article: None,
                });
                let mut r = Ruling::new(i, Decision::MustChange, Some(&by), Some(s));
                if let Some((n, c)) = self.rounds_to_change(Trigger::ChangeRefused) {
                    if self.wait(i, n, Some((s, by.clone()))) {
                        r.rounds = Some(n);
                        r = r.note(format!("{n} rounds to change ({})", c.clause));
                    }
                }
                if by.clause.is_empty() {
                    r.clause = None;
                }
                self.rule(r);
                self.orders[s.index()] = Some(by);
            }
        }
    }
}
