//! Irregularities and time: illegal moves found later, touch-move, adjusting, a piece
//! displaced or knocked over, lateness, colours reversed.

use super::*;

impl Game<'_> {
    pub(super) fn illegal_move(
        &mut self,
        i: usize,
        text: &str,
        found_after: u32,
    ) -> Result<(), ArbiterError> {
        let m = parse_iccs(text)?;
        let mover = self.stm();
        let classes: Vec<IllegalClass> = match self.pos.check_move(self.vm, m) {
            Ok(()) => {
                return Err(ArbiterError::reject(
                    RejectKind::EventsNotIllegal,
                    format!("{m} is a legal move; give it as a `move` event"),
                ));
            }
            Err(e) => match e.reason {
                IllegalReason::NoPiece => {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsImpossible,
                        format!("no piece stands on {}", m.from),
                    ));
                }
                IllegalReason::NotYourPiece | IllegalReason::NotAMove => {
                    vec![IllegalClass::NotAMove]
                }
                IllegalReason::SelfKill => {
                    let mut after = self.pos.clone();
                    after.make(self.vm, m);
                    let (attacked, facing) = after.self_kill_conditions(self.vm, mover);
                    [
                        (attacked, IllegalClass::OwnRoyalAttacked),
                        (facing, IllegalClass::RoyalsFacing),
                    ]
                    .into_iter()
                    .filter_map(|(b, c)| b.then_some(c))
                    .collect()
                }
            },
        };
        let finding = self
            .rules
            .illegal
            .as_ref()
            .filter(|(_, f)| classes_match(&f.classes, &classes));
        if let Some((c, f)) = finding {
            if f.within_rounds.is_some_and(|w| found_after > w) {
                let c = c.clone();
                self.rule(
                    Ruling::new(i, Decision::ResultStands, Some(&c), Some(mover)).note(format!(
                        "found after {found_after} rounds: too late, the move stands"
                    )),
                );
                return self.stand(i, m);
            }
        }
        self.fire(
            i,
            Trigger::IllegalMove,
            Some(mover),
            &classes,
            Detail::default(),
        );
        if let Some((c, f)) = finding {
            if f.touched_after && self.candidates.is_empty() {
                let c = c.clone();
                self.touches[mover.index()].push(m.from);
                let mut r =
                    Ruling::new(i, Decision::MustMove, Some(&c), Some(mover)).note(format!(
                        "the move is taken back; the piece on {} counts as touched",
                        m.from
                    ));
                r.moves = Some(
                    self.pos
                        .legal_moves_from(self.vm, m.from)
                        .iter()
                        .map(|m| m.iccs())
                        .collect(),
                );
                self.rule(r);
            }
        }
        Ok(())
    }

    /// An irregular change of the board that stands: the position must still be one the
    /// rules allow.
    pub(super) fn stand(&mut self, i: usize, m: Move) -> Result<(), ArbiterError> {
        let before = self.pos.clone();
        if self
            .pos
            .piece_at(m.to)
            .is_some_and(|p| p.kind == self.vm.royal_kind())
        {
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("{m} would take a general"),
            ));
        }
        self.advance(i, m);
        if let Err(e) = crate::vm::fen::validate(self.vm, &self.pos) {
            self.pos = before;
            self.history.pop();
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("after {m} the position cannot stand under the rules ({e})"),
            ));
        }
        Ok(())
    }

    pub(super) fn between(
        &mut self,
        i: usize,
        b: &events::BetweenEvent,
    ) -> Result<(), ArbiterError> {
        let from = events::point(&b.from)?;
        let chosen = events::point(&b.chosen)?;
        let points = [events::point(&b.points[0])?, events::point(&b.points[1])?];
        if !points.contains(&chosen) {
            return Err(ArbiterError::reject(
                RejectKind::EventsSyntax,
                format!("`chosen` ({chosen}) is not one of the two points"),
            ));
        }
        let by: Side = b.chosen_by.into();
        let mover = self.stm();
        match self.rules.between.as_ref() {
            Some((c, rule)) => {
                let want = match rule.chooser {
                    Chooser::Opponent => mover.opponent(),
                    Chooser::Mover => mover,
                };
                if by != want {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsWrongSide,
                        format!(
                            "{} chooses the point ({}), not {}",
                            want.name(),
                            c.clause,
                            by.name()
                        ),
                    ));
                }
                let c = c.clone();
                self.rule(
                    Ruling::new(i, Decision::Chosen, Some(&c), Some(by))
                        .note(format!("the piece stands on {chosen}")),
                );
            }
            None => self.rule(
                Ruling::new(i, Decision::NotRegulated, None, Some(by))
                    .note(format!("the piece is taken to stand on {chosen}")),
            ),
        }
        self.play(i, Move::new(from, chosen))
    }

    pub(super) fn touch(
        &mut self,
        i: usize,
        side: Side,
        points: &[String],
        simultaneous: bool,
    ) -> Result<(), ArbiterError> {
        if side != self.stm() {
            return Err(not_on_move(side, "touch pieces to move them"));
        }
        let mut new = Vec::new();
        for p in points {
            let sq = events::point(p)?;
            new.push(touch::touched(&self.pos, sq)?);
        }
        let mut all = self.current_touches(side);
        all.extend(new.iter().copied());
        let simultaneous = self.simultaneous[side.index()] || (simultaneous && new.len() > 1);
        touch::chain(self.rules, &all, simultaneous)?;
        self.simultaneous[side.index()] = simultaneous;
        self.touches[side.index()].extend(new.iter().map(|t| t.point));
        self.judge_touches(i, side, &new);
        Ok(())
    }

    /// The fouls of touching these pieces (8.1.5), the side being on move.
    pub(super) fn judge_touches(&mut self, i: usize, side: Side, touched: &[Touched]) {
        for &t in touched {
            if let Some(tr) = touch::touch_trigger(self.vm, &self.pos, t) {
                self.fire(i, tr, Some(side), &[], Detail::default());
            }
        }
    }

    /// Touches made out of turn are judged when their side is next on move.
    pub(super) fn judge_deferred_touches(&mut self, i: usize) {
        let s = self.stm();
        if self.deferred_touches[s.index()].is_empty() {
            return;
        }
        let points = std::mem::take(&mut self.deferred_touches[s.index()]);
        let touched: Vec<Touched> = points
            .iter()
            .filter_map(|&p| touch::touched(&self.pos, p).ok())
            .filter(|t| t.role == crate::arbiter::data::Role::Own)
            .collect();
        self.judge_touches(i, s, &touched);
    }

    pub(super) fn adjust(&mut self, i: usize, a: &events::AdjustEvent) -> Result<(), ArbiterError> {
        let side: Side = a.side.into();
        let mut points = Vec::new();
        for p in &a.points {
            let sq = events::point(p)?;
            if self.pos.piece_at(sq).is_none() {
                return Err(ArbiterError::reject(
                    RejectKind::TouchEmptyPoint,
                    format!("no piece stands on {sq}"),
                ));
            }
            points.push(sq);
        }
        let Some((c, rule)) = self.rules.adjusting.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, Some(side)));
            return Ok(());
        };
        let c = c.clone();
        if a.accidental && rule.accidental_exempt {
            self.rule(
                Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                    .note("an obvious accidental touch does not count"),
            );
            return Ok(());
        }
        let in_time = !rule.own_time_only || side == self.stm();
        let met = rule.requires.iter().all(|r| match r {
            Requirement::Announced => a.announced,
            Requirement::OpponentConsent => a.consent,
        });
        if in_time && met {
            self.rule(Ruling::new(i, Decision::Adjusted, Some(&c), Some(side)));
            return Ok(());
        }
        self.rule(Ruling::new(
            i,
            Decision::CountsAsTouch,
            Some(&c),
            Some(side),
        ));
        if side == self.stm() {
            let mut all = self.current_touches(side);
            let new: Vec<Touched> = points
                .iter()
                .filter_map(|&p| touch::touched(&self.pos, p).ok())
                .collect();
            all.extend(new.iter().copied());
            touch::chain(self.rules, &all, self.simultaneous[side.index()])?;
            self.touches[side.index()].extend(&points);
            self.judge_touches(i, side, &new);
        } else {
            // Out of turn only own pieces bind (the opponent's may be gone by then).
            let own: Vec<Square> = points
                .into_iter()
                .filter(|&p| self.pos.piece_at(p).is_some_and(|x| x.side == side))
                .collect();
            self.touches[side.index()].extend(&own);
            self.deferred_touches[side.index()].extend(own);
        }
        Ok(())
    }

    pub(super) fn late(&mut self, i: usize, seconds: [u32; 2]) -> Result<(), ArbiterError> {
        if self.late_seen {
            return Err(ArbiterError::reject(
                RejectKind::EventsOutOfOrder,
                "the lateness of both sides is one event, given once",
            ));
        }
        if let Some(s) = Side::BOTH
            .into_iter()
            .find(|s| seconds[s.index()] > 0 && self.moved[s.index()])
        {
            return Err(ArbiterError::reject(
                RejectKind::EventsOutOfOrder,
                format!("{} is late but has already moved", s.name()),
            ));
        }
        self.late_seen = true;
        let late: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| seconds[s.index()] > 0)
            .collect();
        if let Some(c) = self.rules.clock_runs.clone() {
            for &s in &late {
                let mut r = Ruling::new(i, Decision::DeductTime, Some(&c), Some(s));
                r.seconds = Some(seconds[s.index()]);
                self.rule(r);
            }
        }
        let Some(limit) = self.rules.late_limit else {
            let c = self
                .rules
                .result(Trigger::LateArrival)
                .map(|r| r.clause.clone());
            for &s in &late {
                let d = if c.is_some() {
                    Decision::Undecided
                } else {
                    Decision::NotRegulated
                };
                self.rule(
                    Ruling::new(i, d, c.as_ref(), Some(s))
                        .note("the lateness limit is the event's; apply an overlay that sets it"),
                );
            }
            return Ok(());
        };
        let over: Vec<Side> = late
            .into_iter()
            .filter(|s| seconds[s.index()] > limit * 60)
            .collect();
        for &s in &over {
            self.fire(i, Trigger::LateArrival, Some(s), &[], Detail::default());
        }
        if over.len() == 2 {
            self.fire(i, Trigger::BothLate, None, &[], Detail::default());
        }
        Ok(())
    }

    pub(super) fn colours(&mut self, i: usize, found_after_seconds: u32) {
        let Some((c, rule)) = self.rules.colours.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, None));
            return;
        };
        let c = c.clone();
        if rule
            .within_minutes
            .is_some_and(|m| found_after_seconds > m * 60)
        {
            self.rule(
                Ruling::new(i, Decision::ResultStands, Some(&c), None)
                    .note("found too late: the game goes on and its result stands"),
            );
            return;
        }
        match rule.remedy {
            Remedy::Replay => self.end_replay(i, &c),
            Remedy::Restore => self.rule(Ruling::new(i, Decision::Restore, Some(&c), None)),
        }
    }

    pub(super) fn end_replay(&mut self, i: usize, c: &RuleRef) {
        self.rule(Ruling::new(i, Decision::Replay, Some(c), None));
        self.end = Some(End {
            result: GameResult::Replay,
            clause: c.clone(),
            event: i,
            by: None,
            basis: None,
        });
    }

    pub(super) fn displaced(
        &mut self,
        i: usize,
        from: &str,
        to: &str,
        found_after: u32,
    ) -> Result<(), ArbiterError> {
        let (from, to) = (events::point(from)?, events::point(to)?);
        if self.pos.piece_at(from).is_none() {
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("no piece stands on {from}"),
            ));
        }
        let Some((c, rule)) = self.rules.displaced.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, None));
            return Ok(());
        };
        let c = c.clone();
        if rule.within_rounds.is_some_and(|w| found_after > w) {
            self.rule(
                Ruling::new(i, Decision::ResultStands, Some(&c), None).note(format!(
                    "found after {found_after} rounds: too late, the piece stays on {to}"
                )),
            );
            if self.pos.piece_at(to).is_some() {
                return Err(ArbiterError::reject(
                    RejectKind::EventsImpossible,
                    format!("{to} is occupied"),
                ));
            }
            let before = self.pos.clone();
            let piece = self.pos.remove(from).expect("checked above");
            self.pos.put(piece, to);
            if let Err(e) = crate::vm::fen::validate(self.vm, &self.pos) {
                self.pos = before;
                return Err(ArbiterError::reject(
                    RejectKind::EventsImpossible,
                    format!("the piece cannot stand on {to} ({e})"),
                ));
            }
            // The board changed without a move: the positions before cannot come back as a cycle.
            self.history = History::new(&self.pos, self.plies);
            return Ok(());
        }
        match rule.remedy {
            Remedy::Restore => {
                self.rule(Ruling::new(i, Decision::Restore, Some(&c), None));
                if rule.free_choice {
                    let s = self.stm();
                    self.touches[s.index()].clear();
                    self.simultaneous[s.index()] = false;
                }
            }
            Remedy::Replay => self.end_replay(i, &c),
        }
        Ok(())
    }

    pub(super) fn knock_over(
        &mut self,
        i: usize,
        k: &events::KnockEvent,
    ) -> Result<(), ArbiterError> {
        let side: Side = k.side.into();
        let Some((c, rule)) = self.rules.knocked.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, Some(side)));
            return Ok(());
        };
        let c = c.clone();
        let left_ms = k.opponent_remaining_seconds.map(|s| i64::from(s) * 1000);
        let ruling = rule
            .ruling(Some(k.pieces), k.off_board, k.after_press, left_ms)
            .ok_or_else(|| {
                ArbiterError::reject(
                    RejectKind::EventsSyntax,
                    "a knock-over after the clock press needs `opponent_remaining_seconds`",
                )
            })?;
        match ruling {
            KnockRuling::TooFew => {
                self.rule(
                    Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                        .note("fewer pieces than a knock-over (碰乱) needs"),
                );
            }
            KnockRuling::OwnTime => {
                self.rule(
                    Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                        .note("put right in the knocker's own time"),
                );
            }
            KnockRuling::Penalty(KnockEffect::Loss) => {
                self.end_by(&c, ResultKind::Loss, Some(side))
            }
            KnockRuling::Penalty(KnockEffect::TimeAdded(ms)) => {
                let mut r = Ruling::new(i, Decision::AddTime, Some(&c), Some(side.opponent()));
                r.seconds = Some(u32::try_from(ms / 1000).unwrap_or(u32::MAX));
                self.rule(r);
            }
        }
        Ok(())
    }
}
