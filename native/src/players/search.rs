//! `search`: `best`, with its close guesses valued by rollouts.
//!
//! Where `best` would guess by its heuristic (not its exact endgame, not an unavoidable
//! 50/50), `search` takes `best`'s guess and the other cells whose mine probability is
//! within `margin` of the lowest (deep cells once per class, at most `candidates` in
//! all), and values each by rollouts: on a layout drawn exactly uniformly from the
//! position ([`crate::sample`]), the candidate is opened, then a fast player (`greedy` by
//! default) plays the game out; a rollout is a win or a loss. All candidates play on the
//! same layouts, each layout with the same generator for every candidate (common random
//! numbers: the differences between candidates are measured on the same games).
//! The rollouts are given in two rounds (a race): half of them select, on the same
//! drawn layouts, the leader among the other candidates; the other half play the leader
//! and `best`'s guess on fresh layouts, so that the layouts which chose the leader do
//! not also judge it (a first version tested on the selection's own layouts, with a
//! z-score over as few as 18 of them, and lost intermediate games to `best`: 6 won by it
//! alone against 19 in 1,000).
//! Where the position has at most `exact_layouts` layouts, every layout is played once
//! instead of drawn: the values are then exact for the rollout player, and the most
//! wins takes the guess.
//!
//! A drawn value is noisy, and `best`'s guess is a strong default, so `search` leaves it
//! only when the exact one-sided sign test on the fresh layouts where the two differ
//! (won by one only) is at most `alpha`: where the rollouts cannot tell, `search` plays
//! as `best`.
//!
//! In a position of the opening book given ([`Search::set_book`], see
//! [`super::book`]), where `best` would guess by its heuristic, `search` plays the
//! book's move (valued offline by far more rollouts than a move can afford) and values
//! nothing itself; the setting `book=off` ignores the book.
//!
//! The budget is counted in rollouts, never seconds: the draws come from a copy of the
//! game's generator (the game's own draws are left as `best` leaves them), so a game
//! played twice is the same game on every machine, and where `search` keeps `best`'s
//! guesses it plays `best`'s very game. A deadline is
//! a safety net only (it stops the move with an error).
//!
//! Cost per valued guess: `best`'s guess, the sampler (see [`crate::sample`]), and at
//! most `rollouts` played-out games of the rollout player (each O(its own cost from the
//! position on): about 1.4 ms of one core for `greedy` from an early expert position,
//! three times that for `pseq`).

use std::sync::Arc;

use num_bigint::BigUint;

use crate::count::Counts;
use crate::exact::{Analysis, NOT_UNKNOWN, ONE};
use crate::game::{neighbour_table, Game, Kind, Status, FLAG, HIDDEN};
use crate::limits::Deadline;
use crate::mt::Mt;
use crate::sample::Sampler;
use crate::whatif::Parent;

use super::best::{Best, Options as BestOptions};
use super::book::{Book, BookMove};
use super::endgame::enumerate_layouts;
use super::pseq::representatives;
use super::{by_name, layout_count, level_ratio, ratio_to_f64, PlayError, Player, View, Why};

/// The settings of `search`.
#[derive(Debug, Clone)]
pub struct Options {
    /// Rollouts per valued guess, all candidates together (the budget).
    pub rollouts: u32,
    /// Most candidates valued, `best`'s guess included.
    pub candidates: usize,
    /// Candidates are the cells within this mine probability of the lowest.
    pub margin: f64,
    /// A position with at most this many layouts plays every layout once.
    pub exact_layouts: u64,
    /// The one-sided sign test's level at which a candidate's wins over `best`'s guess,
    /// on fresh layouts, replace `best`'s guess.
    pub alpha: f64,
    /// The player that plays the rollouts out (`pseq`, `greedy` or `best`).
    pub rollout: String,
    /// `best`'s own settings (its guess, and the rollouts' when they play `best`).
    pub best: BestOptions,
    /// Whether a book position's move comes from the opening book given
    /// ([`Search::set_book`]).
    pub book: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rollouts: 64,
            candidates: 4,
            margin: 0.05,
            exact_layouts: 24,
            alpha: 0.05,
            rollout: "greedy".into(),
            best: BestOptions::default(),
            book: true,
        }
    }
}

/// The exact one-sided sign test: the chance that a fair coin gives at least `ahead`
/// heads in `ahead + behind` tosses (1 when nothing was discordant).
pub fn sign_test(ahead: u64, behind: u64) -> f64 {
    let n = ahead + behind;
    if n == 0 {
        return 1.0;
    }
    // sum of C(n, k) / 2^n for k >= ahead, term by term in floats (n is small)
    let mut term = 0.5f64.powi(n as i32); // C(n, 0) / 2^n
    let mut total = 0.0;
    for k in 0..=n {
        if k >= ahead {
            total += term;
        }
        term *= (n - k) as f64 / (k + 1) as f64;
    }
    total.min(1.0)
}

/// `value` read as a number for the setting `key`.
fn num<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("{key}: {value:?} is not a valid value"))
}

impl Options {
    /// The settings a name gives: `search`, or `search:rollouts=48;rollout=best;...`
    /// (fields `rollouts`, `candidates`, `margin`, `exact_layouts`, `alpha`, `rollout`,
    /// `book` on or off);
    /// an error names a wrong field or value.
    pub fn parse(name: &str) -> Result<Options, String> {
        let mut o = Options::default();
        let rest = match name.strip_prefix("search") {
            Some("") => return Ok(o),
            Some(r) => r.strip_prefix(':').ok_or(format!("no player {name:?}"))?,
            None => return Err(format!("no player {name:?}")),
        };
        for item in rest.split(';').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or(format!("{item:?} is not field=value"))?;
            match key.trim() {
                "rollouts" => o.rollouts = num(key, value)?,
                "candidates" => o.candidates = num(key, value)?,
                "margin" => o.margin = num(key, value)?,
                "exact_layouts" => o.exact_layouts = num(key, value)?,
                "alpha" => o.alpha = num(key, value)?,
                "rollout" if ["pseq", "greedy", "best"].contains(&value.trim()) => {
                    o.rollout = value.trim().to_owned()
                }
                "rollout" => return Err(format!("rollout: {value:?} is not pseq, greedy or best")),
                "book" => {
                    o.book = match value.trim() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("book: {value:?} is not on or off")),
                    }
                }
                _ => return Err(format!("search has no setting {key:?}")),
            }
        }
        if o.candidates < 2
            || o.margin.is_nan()
            || o.margin < 0.0
            || !(0.0..=1.0).contains(&o.alpha)
        {
            return Err(format!(
                "{name:?}: candidates >= 2, margin >= 0, 0 <= alpha <= 1"
            ));
        }
        Ok(o)
    }
}

/// `search`: `best`, and the rollouts' player.
pub struct Search {
    pub options: Options,
    best: Best,
    rollout: Box<dyn Player>,
    table: Option<Arc<Vec<Vec<u32>>>>,
    book: Option<Arc<Book>>,
}

impl std::fmt::Debug for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// One candidate's rollouts: the result on each layout it played (by layout index).
struct Valued {
    cell: usize,
    wins: Vec<Option<bool>>,
}

impl Valued {
    fn won(&self) -> u64 {
        self.wins.iter().filter(|w| **w == Some(true)).count() as u64
    }
    fn played(&self) -> u64 {
        self.wins.iter().filter(|w| w.is_some()).count() as u64
    }
    fn mean(&self) -> f64 {
        self.won() as f64 / self.played().max(1) as f64
    }
}

impl Search {
    /// A `search` with these settings (`None` for an unknown rollout player).
    pub fn new(options: Options) -> Option<Search> {
        let rollout: Box<dyn Player> = if options.rollout == "best" {
            Box::new(Best::new(options.best.clone()))
        } else {
            by_name(&options.rollout).filter(|_| options.rollout != "search")?
        };
        Some(Search {
            best: Best::new(options.best.clone()),
            options,
            rollout,
            table: None,
            book: None,
        })
    }

    /// Play the moves of `book` in its positions (unless the `book` setting is off).
    pub fn set_book(&mut self, book: Arc<Book>) {
        self.book = Some(book);
    }

    /// The book's move in `view` where it holds the position and the move is a closed
    /// cell that may be safe.
    fn book_move(&self, view: &View<'_>, a: &Analysis) -> Option<BookMove> {
        if !self.options.book {
            return None;
        }
        let m = self.book.as_ref()?.get(view)?;
        let level = *a.cell_level.get(m.cell as usize)?;
        (level != NOT_UNKNOWN && level != ONE).then(|| m.clone())
    }

    /// The candidates: `best`'s guess first, then the cells within `margin` of the
    /// lowest probability in increasing probability (deep cells once per class).
    fn candidates(&self, view: &View<'_>, a: &Analysis, guess: usize) -> Vec<usize> {
        let mut cells: Vec<(f64, usize)> = (0..a.cell_level.len())
            .filter(|&i| a.cell_level[i] != NOT_UNKNOWN && a.cell_level[i] != ONE)
            .map(|i| {
                let r = level_ratio(a, a.cell_level[i]);
                (ratio_to_f64(&r.num, &r.den), i)
            })
            .collect();
        cells.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let Some(low) = cells.first().map(|c| c.0) else {
            return vec![guess];
        };
        let near: Vec<u32> = cells
            .iter()
            .take_while(|c| c.0 <= low + self.options.margin)
            .map(|c| c.1 as u32)
            .collect();
        let mut out = vec![guess];
        for c in representatives(view, &near) {
            if out.len() >= self.options.candidates {
                break;
            }
            if c as usize != guess {
                out.push(c as usize);
            }
        }
        out
    }

    /// Open `cell` on `layout` from the position `view`, then let the rollout player
    /// play the game out with the generator seeded `seed`: won or lost ([`play_out`]).
    fn rollout(
        &mut self,
        view: &View<'_>,
        layout: &[u32],
        cell: usize,
        seed: u64,
        deadline: &Deadline,
    ) -> Result<bool, PlayError> {
        play_out(
            view,
            layout,
            cell,
            seed,
            self.rollout.as_mut(),
            &mut self.table,
            deadline,
        )
    }

    /// Every candidate still in `contention` played on each layout of `layouts`
    /// (indices from `first` on), the same seed per layout for every candidate.
    fn play_round(
        &mut self,
        view: &View<'_>,
        valued: &mut [Valued],
        contention: &[usize],
        layouts: &[Vec<u32>],
        seeds: &[u64],
        deadline: &Deadline,
    ) -> Result<(), PlayError> {
        for (j, layout) in layouts.iter().enumerate() {
            for &k in contention {
                let won = self.rollout(view, layout, valued[k].cell, seeds[j], deadline)?;
                let v = &mut valued[k];
                v.wins.push(Some(won));
            }
            // candidates out of contention: no result on this layout
            for (k, v) in valued.iter_mut().enumerate() {
                if !contention.contains(&k) {
                    v.wins.push(None);
                }
            }
        }
        Ok(())
    }

    /// The guess: `best`'s, or a candidate the rollouts found better (see the module).
    pub fn choose(
        &mut self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        let (guess, why) = self.best.choose(view, a, parent, rng, deadline)?;
        if !matches!(why, Why::Safety { .. }) {
            return Ok((guess, why));
        }
        if let Some(m) = self.book_move(view, a) {
            if m.cell == guess {
                return Ok((guess, why));
            }
            let why = Why::Rollout {
                wins: m.wins,
                rollouts: m.rollouts,
                best_wins: m.best_wins,
                best_rollouts: m.best_rollouts,
                probability: level_ratio(a, a.cell_level[m.cell as usize]),
            };
            return Ok((m.cell, why));
        }
        if self.options.rollouts == 0 {
            return Ok((guess, why));
        }
        let cells = self.candidates(view, a, guess as usize);
        if cells.len() < 2 {
            return Ok((guess, why));
        }
        let mut valued: Vec<Valued> = cells
            .iter()
            .map(|&cell| Valued {
                cell,
                wins: Vec::new(),
            })
            .collect();
        // the rollouts' draws come from a copy of the game's generator: the game's own
        // draws (best's tie-breaks) stay those of `best`, so where `search` keeps
        // `best`'s guess the game goes on exactly as `best`'s would
        let base = rng.clone().getrandbits(64);
        let count = layout_count(a);
        let exact = count <= BigUint::from(self.options.exact_layouts);
        let mut listed = None;
        if exact {
            let limit = usize::try_from(self.options.exact_layouts).unwrap_or(usize::MAX);
            listed = enumerate_layouts(view, limit, deadline)?;
        }
        if let Some(list) = listed {
            // every layout once: exact values for the rollout player
            let flags: Vec<u32> = (0..view.raw.len() as u32)
                .filter(|&i| view.raw[i as usize] == FLAG)
                .collect();
            let layouts: Vec<Vec<u32>> = list
                .into_iter()
                .map(|mut l| {
                    l.extend(&flags);
                    l
                })
                .collect();
            let seeds: Vec<u64> = (0..layouts.len() as u64).map(|j| base ^ j).collect();
            let all: Vec<usize> = (0..valued.len()).collect();
            self.play_round(view, &mut valued, &all, &layouts, &seeds, deadline)?;
            let top = (1..valued.len()).fold(0, |t, k| {
                if valued[k].won() > valued[t].won() {
                    k
                } else {
                    t
                }
            });
            return Ok(self.answer(a, &valued, top, guess, why));
        }
        let board = view.board();
        let Ok(sampler) = Sampler::new(&board) else {
            return Ok((guess, why)); // a frontier too long to list: best's guess
        };
        let mut draw = Mt::from_u64(base);
        // selection: the other candidates on the same layouts, half the budget
        let half = self.options.rollouts as usize / 2;
        let others: Vec<usize> = (1..valued.len()).collect();
        let n = (half / others.len()).max(1);
        let layouts: Vec<Vec<u32>> = (0..n).map(|_| sampler.draw(&mut draw)).collect();
        let seeds: Vec<u64> = (0..n as u64).map(|j| base ^ j).collect();
        self.play_round(view, &mut valued, &others, &layouts, &seeds, deadline)?;
        let leader = others.iter().copied().fold(1, |t, k| {
            if valued[k].mean() > valued[t].mean() {
                k
            } else {
                t
            }
        });
        // confirmation: the leader and best's guess on fresh layouts (the selection's
        // layouts would favour the leader they chose)
        let mut fresh: Vec<Valued> = [0, leader]
            .iter()
            .map(|&k| Valued {
                cell: valued[k].cell,
                wins: Vec::new(),
            })
            .collect();
        let m = (half / 2).max(1);
        let layouts: Vec<Vec<u32>> = (0..m).map(|_| sampler.draw(&mut draw)).collect();
        let seeds: Vec<u64> = (0..m as u64).map(|j| base ^ (n as u64 + j)).collect();
        self.play_round(view, &mut fresh, &[0, 1], &layouts, &seeds, deadline)?;
        let (mut ahead, mut behind) = (0u64, 0u64);
        for (x, y) in fresh[1].wins.iter().zip(&fresh[0].wins) {
            match (x, y) {
                (Some(true), Some(false)) => ahead += 1,
                (Some(false), Some(true)) => behind += 1,
                _ => {}
            }
        }
        let top = usize::from(sign_test(ahead, behind) <= self.options.alpha);
        Ok(self.answer(a, &fresh, top, guess, why))
    }

    /// The move of candidate `top` (`best`'s own reason when it is `best`'s guess).
    fn answer(
        &self,
        a: &Analysis,
        valued: &[Valued],
        top: usize,
        guess: u32,
        why: Why,
    ) -> (u32, Why) {
        let cell = valued[top].cell;
        if cell == guess as usize {
            return (guess, why);
        }
        let why = Why::Rollout {
            wins: valued[top].won(),
            rollouts: valued[top].played(),
            best_wins: valued[0].won(),
            best_rollouts: valued[0].played(),
            probability: level_ratio(a, a.cell_level[cell]),
        };
        (cell as u32, why)
    }
}

/// Open `cell` on `layout` from the position `view`, then let `player` play the game
/// out with the generator seeded `seed`: won or lost. `table` keeps the board's
/// neighbour table between calls.
pub fn play_out(
    view: &View<'_>,
    layout: &[u32],
    cell: usize,
    seed: u64,
    player: &mut dyn Player,
    table: &mut Option<Arc<Vec<Vec<u32>>>>,
    deadline: &Deadline,
) -> Result<bool, PlayError> {
    let table = match table {
        Some(t) if t.len() == view.raw.len() => Arc::clone(t),
        _ => {
            let t = Arc::new(neighbour_table(view.width, view.height));
            *table = Some(Arc::clone(&t));
            t
        }
    };
    let mut game = Game::new(view.width, view.height, layout, table)
        .ok_or_else(|| PlayError::Invalid("a drawn layout off the board".into()))?;
    let bad = |_| PlayError::Invalid("a drawn layout does not explain the position".into());
    for (i, &v) in view.raw.iter().enumerate() {
        if v <= 8 && game.raw()[i] == HIDDEN {
            game.push(Kind::Open, i as u32).map_err(bad)?;
        } else if v == FLAG {
            game.push(Kind::Flag, i as u32).map_err(bad)?;
        }
    }
    if game.raw() != view.raw {
        return Err(PlayError::Invalid(
            "a drawn layout does not explain the position".into(),
        ));
    }
    game.push(Kind::Open, cell as u32).map_err(bad)?;
    let mut rng = Mt::from_u64(seed);
    player.reset();
    let mut raw = Vec::with_capacity(view.raw.len());
    while !game.over() {
        deadline.check()?;
        raw.clear();
        raw.extend_from_slice(game.raw());
        let here = View { raw: &raw, ..*view };
        let moves = player.next_moves(&here, &mut rng, deadline)?;
        let mut changed = false;
        for m in &moves {
            if game.over() {
                break;
            }
            changed |= game.push(m.kind, m.cell).map_err(bad)?;
        }
        if !changed {
            return Err(PlayError::Invalid("the rollout player made no move".into()));
        }
    }
    Ok(game.status() == Status::Won)
}

impl Player for Search {
    fn reset(&mut self) {
        self.best.reset();
        self.rollout.reset();
    }

    fn counts(&mut self) -> &mut Counts {
        self.best.counts()
    }

    fn guess(
        &mut self,
        view: &View<'_>,
        a: &Analysis,
        parent: &Parent,
        rng: &mut Mt,
        deadline: &Deadline,
    ) -> Result<(u32, Why), PlayError> {
        self.choose(view, a, parent, rng, deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::testing::guess_spots;

    fn play(spot: &crate::players::testing::Spot, seed: u64, options: Options) -> Vec<(u32, bool)> {
        let view = spot.view();
        let mut search = Search::new(options).unwrap();
        let moves = search
            .next_moves(&view, &mut Mt::from_u64(seed), &Deadline::none())
            .unwrap();
        moves.iter().map(|m| (m.cell, m.guess)).collect()
    }

    /// The same position and seed give the same move; a guess is never a cell the exact
    /// analysis proves a mine; where no rollout is allowed the move is `best`'s.
    #[test]
    fn deterministic_never_a_certain_mine_and_best_without_rollouts() {
        let spots = guess_spots(51, 9, 9, 10, 60);
        let options = Options {
            rollouts: 24,
            ..Options::default()
        };
        let mut changed = 0;
        for (k, spot) in spots.iter().enumerate() {
            let view = spot.view();
            let a = view.analyse(&Deadline::none()).unwrap();
            let first = play(spot, k as u64, options.clone());
            assert_eq!(first, play(spot, k as u64, options.clone()));
            let guess = first.last().unwrap();
            assert!(guess.1);
            assert_ne!(
                a.cell_level[guess.0 as usize], ONE,
                "a certain mine guessed"
            );
            assert_ne!(a.cell_level[guess.0 as usize], NOT_UNKNOWN);
            let none = play(
                spot,
                k as u64,
                Options {
                    rollouts: 0,
                    ..options.clone()
                },
            );
            let mut best = Best::new(BestOptions::default());
            let of_best: Vec<(u32, bool)> = best
                .next_moves(&view, &mut Mt::from_u64(k as u64), &Deadline::none())
                .unwrap()
                .iter()
                .map(|m| (m.cell, m.guess))
                .collect();
            assert_eq!(none, of_best);
            changed += usize::from(first != of_best);
        }
        assert!(spots.len() > 20, "{} positions", spots.len());
        let _ = changed;
    }

    /// On a small position, the rollouts' mean over drawn layouts agrees with the exact
    /// mean over every layout (the same rollout seed): within 4 standard errors.
    #[test]
    fn drawn_rollouts_agree_with_every_layout() {
        let spot = guess_spots(52, 6, 6, 7, 40)
            .into_iter()
            .find(|s| {
                let a = s.view().analyse(&Deadline::none()).unwrap();
                let n = layout_count(&a);
                n > BigUint::from(50u32) && n < BigUint::from(3000u32)
            })
            .expect("a position with a few hundred layouts");
        let view = spot.view();
        let a = view.analyse(&Deadline::none()).unwrap();
        let cell = (0..a.cell_level.len())
            .find(|&i| a.cell_level[i] != NOT_UNKNOWN && a.cell_level[i] > ONE)
            .unwrap();
        let mut search = Search::new(Options::default()).unwrap();
        let all = enumerate_layouts(&view, 5000, &Deadline::none())
            .unwrap()
            .unwrap();
        let mut exact = 0.0;
        for l in &all {
            exact += f64::from(u8::from(
                search
                    .rollout(&view, l, cell, 7, &Deadline::none())
                    .unwrap(),
            ));
        }
        let exact = exact / all.len() as f64;
        let board = view.board();
        let sampler = Sampler::new(&board).unwrap();
        let mut rng = Mt::from_u64(9);
        let n = 3000;
        let mut won = 0.0;
        for _ in 0..n {
            let l = sampler.draw(&mut rng);
            won += f64::from(u8::from(
                search
                    .rollout(&view, &l, cell, 7, &Deadline::none())
                    .unwrap(),
            ));
        }
        let mean = won / n as f64;
        let se = (exact * (1.0 - exact) / n as f64).sqrt().max(1e-9);
        assert!(
            (mean - exact).abs() <= 4.0 * se,
            "drawn {mean} exact {exact} se {se}"
        );
    }

    #[test]
    fn the_sign_test_is_exact() {
        assert_eq!(sign_test(0, 0), 1.0);
        assert!((sign_test(5, 0) - 1.0 / 32.0).abs() < 1e-12);
        assert!((sign_test(6, 1) - 8.0 / 128.0).abs() < 1e-12);
        assert!((sign_test(0, 3) - 1.0).abs() < 1e-12);
        assert!((sign_test(2, 2) - 11.0 / 16.0).abs() < 1e-12);
    }

    #[test]
    fn names_give_settings() {
        let o = Options::parse("search:rollouts=48;rollout=best;alpha=0.01").unwrap();
        assert_eq!(
            (o.rollouts, o.rollout.as_str(), o.alpha),
            (48, "best", 0.01)
        );
        assert!(Options::parse("search:nope=1").is_err());
        assert!(Options::parse("search:rollout=search").is_err());
        assert!(Options::parse("searching").is_err());
        assert_eq!(
            Options::parse("search").unwrap().rollouts,
            Options::default().rollouts
        );
    }
}
