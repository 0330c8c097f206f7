// Monte Carlo simulation of candidate moves, and inference of the opponent's leave.
//
// Simulation (tessera.engine.simulation is the Python side; tessera.engine.simref the naive
// reference loop the tests hold this against). Iteration i has its own random stream, CPython's
// generator seeded with stream_seed(seed, i): it picks the opponent's kept leave among the
// inferred ones (when given), shuffles the remaining unseen tiles (random.shuffle), deals the
// opponent's rack from the end of that list and leaves the rest as the bag, drawn from the end.
// Every candidate is played from that same deal (common random numbers): the candidate, then
// `plies` moves of the static player (StaticEngine::best_move) alternately for the opponent
// and for us, all through Duel::apply, from the real scores (a finish-line game ends when a
// player reaches its target, R8.3). Exchanged tiles go to the bottom of the bag. At the
// horizon a candidate scores
//   equity = spread change + our last move's leave - the opponent's last move's leave (a
//            move's leave value is its equity minus its score; the candidate is our first
//            move), or the final spread change when the game ended, and
//   win    = the win probability of the resulting spread for the player to move there,
//            from the win-% table (WinTable), or 1 / 0.5 / 0 when the game ended.
// In a race (`race`: a finish-line game, R8.3) the win at the horizon is read from a race
// table instead: its rows are the points the player to move still needs to reach the target,
// its columns the points the other player needs, each less the leave value of that side's
// last move (tessera.engine.race_player builds it).
// Iterations run in batches of `batch`; within a batch, (iteration, candidate) rollouts are
// shared out among threads, each result written to its own slot, and the batch is summed in
// iteration order afterwards, so a fixed iteration count and seed give the same sums on any
// number of threads. After each batch a candidate is dropped when it is behind the leader (by
// win % or by equity) by more than z standard errors of their difference. The difference is
// taken deal by deal: both were played from the same deals, so the luck of the draw, common to
// both, cancels (the sums of products of every pair of candidates are kept for this).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "static_engine.hpp"

namespace py = pybind11;

namespace tessera::engine {

namespace {

using Clock = std::chrono::steady_clock;

uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The seed of random stream i (tessera.engine.simref.stream_seed computes the same).
uint64_t stream_seed(uint64_t seed, uint64_t i) { return splitmix64(seed ^ splitmix64(i)); }

// The bag of a rollout: a shuffled list drawn from the end; exchanged tiles go to the bottom.
struct DeckBag {
    std::vector<uint8_t> tiles;
    size_t size() const { return tiles.size(); }
    uint8_t draw() {
        const uint8_t t = tiles.back();
        tiles.pop_back();
        return t;
    }
    void put_back(uint8_t t) { tiles.insert(tiles.begin(), t); }
};

struct Deadline {
    bool set = false;
    Clock::time_point at;
    bool passed() const { return set && Clock::now() >= at; }
};

}  // namespace

// P(the player to move wins | spread from their side, tiles unseen by them): a table by unseen
// count (rows 0..rows-1) and spread (cols at spread_min + k*spread_step), linear in between,
// clamped at the edges.
class WinTable {
   public:
    WinTable(std::vector<double> values, int rows, int cols, double spread_min, double spread_step)
        : v_(std::move(values)), rows_(rows), cols_(cols), min_(spread_min), step_(spread_step) {
        if (rows < 1 || cols < 2 || static_cast<size_t>(rows) * cols != v_.size())
            throw py::value_error("win table: rows x cols values (at least 1 x 2) expected");
        if (!(spread_step > 0) || !std::isfinite(spread_min))
            throw py::value_error("win table: the spread step must be positive");
        for (double x : v_)
            if (!(x >= 0.0 && x <= 1.0)) throw py::value_error("win table: values must be in [0, 1]");
    }

    double p(double spread, int unseen) const {
        const int u = std::min(std::max(unseen, 0), rows_ - 1);
        const double* row = v_.data() + static_cast<size_t>(u) * cols_;
        const double x = (spread - min_) / step_;
        if (!(x > 0)) return row[0];
        if (x >= cols_ - 1) return row[cols_ - 1];
        const int i = static_cast<int>(x);
        const double f = x - i;
        return row[i] + (row[i + 1] - row[i]) * f;
    }

   private:
    std::vector<double> v_;
    int rows_, cols_;
    double min_, step_;
};

namespace {

struct Setup {
    const StaticEngine* eng;
    const LeaveTable* leaves;
    const WinTable* win;
    std::vector<uint8_t> board;
    int rack[MAX_TILES];
    int unseen[MAX_TILES];
    int opp_rack_size;
    int bag_count;
    int scores[2];
    int scoreless, passes;
    int exchanges[2];
    std::vector<std::vector<uint8_t>> opp_leaves;
    std::vector<Move> cands;
    // the cross-checks of the board after each candidate: the same in every iteration, so
    // the opponent's reply needs none computed, and the later plies only update them
    std::vector<movegen::CrossChecks> cand_cross;
    int plies;
    bool race = false;  // the win at the horizon by the points each side needs (see above)
};

struct Deal {
    int opp[MAX_TILES];
    std::vector<uint8_t> bag;
};

Deal make_deal(const Setup& s, uint64_t seed) {
    PyRandom rng;
    rng.seed(seed);
    Deal d;
    std::memset(d.opp, 0, sizeof(d.opp));
    int pool[MAX_TILES];
    std::memcpy(pool, s.unseen, sizeof(pool));
    int kept = 0;
    if (!s.opp_leaves.empty()) {
        const auto& leave = s.opp_leaves[rng.below(static_cast<uint32_t>(s.opp_leaves.size()))];
        for (uint8_t t : leave) {
            pool[t]--;
            d.opp[t]++;
        }
        kept = static_cast<int>(leave.size());
    }
    std::vector<uint8_t> tiles;
    for (int t = 0; t < s.eng->alpha(); t++)
        for (int k = 0; k < pool[t]; k++) tiles.push_back(static_cast<uint8_t>(t));
    rng.shuffle(tiles);
    for (int k = kept; k < s.opp_rack_size; k++) {
        d.opp[tiles.back()]++;
        tiles.pop_back();
    }
    d.bag = std::move(tiles);
    return d;
}

// One candidate played from one deal: (equity, win), or false if the deadline cut it short.
bool rollout(const Setup& s, int c, const Deal& deal, const Deadline& deadline,
             double& equity, double& win) {
    const StaticEngine& eng = *s.eng;
    const Move& cand = s.cands[c];
    movegen::CrossChecks cross = s.cand_cross[c];
    int placed[movegen::MAX_DIM];
    Duel g(eng);
    g.board = s.board;
    std::memcpy(g.counts[0], s.rack, sizeof(g.counts[0]));
    std::memcpy(g.counts[1], deal.opp, sizeof(g.counts[1]));
    g.exchanges[0] = s.exchanges[0];
    g.exchanges[1] = s.exchanges[1];
    g.scoreless = s.scoreless;
    g.passes = s.passes;
    g.scores[0] = s.scores[0];  // the real scores: a finish-line game ends at its target
    g.scores[1] = s.scores[1];
    DeckBag bag{deal.bag};
    g.apply(eng, 0, cand, bag);
    Move last = cand;
    int last_p = 0;
    double leave[2] = {cand.equity - cand.score, 0.0};  // each side's last leave value
    for (int ply = 1; ply <= s.plies && !g.over; ply++) {
        if (deadline.passed()) return false;
        const int p = ply % 2;
        last = eng.best_move(g.position(eng, p, static_cast<int>(bag.size())), s.leaves,
                             g.scores[p], &cross);
        g.apply(eng, p, last, bag);
        last_p = p;
        leave[p] = last.equity - last.score;
        const int n = Duel::placed_squares(eng, last, placed);
        if (n > 0 && ply < s.plies && !g.over)
            movegen::update_cross_checks(eng.config(), g.board.data(), placed, n, cross);
    }
    const double base = s.scores[0] - s.scores[1];
    const double change = g.scores[0] - g.scores[1] - base;
    if (g.over) {
        equity = change;
        const double final_spread = base + change;
        win = final_spread > 0 ? 1.0 : final_spread < 0 ? 0.0 : 0.5;
        return true;
    }
    equity = change + leave[0] - leave[1];
    const double spread = base + equity;
    const int mover = 1 - last_p;
    const int unseen = static_cast<int>(bag.size()) + g.rack_size(eng, 1 - mover);
    if (s.win == nullptr) {
        win = spread > 0 ? 1.0 : spread < 0 ? 0.0 : 0.5;
    } else if (s.race && eng.rules().finish_target >= 0) {
        const int target = eng.rules().finish_target;
        const double need_mover = std::max(1.0, target - g.scores[mover] - leave[mover]);
        const double need_other = std::max(1.0, target - g.scores[1 - mover] - leave[1 - mover]);
        const double p = s.win->p(need_other, static_cast<int>(std::lround(need_mover)));
        win = mover == 0 ? p : 1.0 - p;
    } else {
        win = mover == 0 ? s.win->p(spread, unseen) : 1.0 - s.win->p(-spread, unseen);
    }
    return true;
}

struct Stat {
    int64_t n = 0;
    double sum = 0, sumsq = 0, wsum = 0, wsumsq = 0;
    bool pruned = false;
    double mean() const { return n ? sum / n : 0.0; }
    double wmean() const { return n ? wsum / n : 0.0; }
    static double se(int64_t n, double sum, double sumsq) {
        if (n < 2) return std::numeric_limits<double>::infinity();
        const double m = sum / n;
        const double var = std::max(0.0, (sumsq - n * m * m) / (n - 1));
        return std::sqrt(var / n);
    }
    double se_eq() const { return se(n, sum, sumsq); }
    double se_win() const { return se(n, wsum, wsumsq); }
};

// Runs `work(k)` for k in [0, items) on `threads` threads (this one included); each k once.
template <class F>
void parallel_items(int threads, int items, F&& work) {
    std::atomic<int> next{0};
    auto loop = [&]() {
        for (int k = next.fetch_add(1); k < items; k = next.fetch_add(1)) work(k);
    };
    std::vector<std::thread> pool;
    const int extra = std::min(threads, items) - 1;
    for (int t = 0; t < extra; t++) pool.emplace_back(loop);
    loop();
    for (auto& th : pool) th.join();
}

void fill_counts(const StaticEngine& eng, const std::vector<int>& tiles, int* counts, const char* what) {
    std::memset(counts, 0, sizeof(int) * MAX_TILES);
    for (int t : tiles) {
        if (face(t) < 0 || face(t) >= eng.alpha())
            throw py::value_error(std::string(what) + ": tile id " + std::to_string(t) + " out of range");
        counts[face(t)]++;
    }
}

std::vector<uint8_t> board_cells(const StaticEngine& eng, const std::vector<int>& board) {
    if (static_cast<int>(board.size()) != eng.rows() * eng.cols())
        throw py::value_error("board: expected rows*cols cells");
    std::vector<uint8_t> cells(board.size());
    for (size_t i = 0; i < board.size(); i++) {
        const int t = board[i];
        if (t && ((t & ~0xFF) || (t & 0x7F) == 0 || (t & 0x7F) >= eng.alpha()))
            throw py::value_error("board: cell " + std::to_string(i) + " holds no letter tile (" +
                                  std::to_string(t) + ")");
        cells[i] = static_cast<uint8_t>(t);
    }
    return cells;
}

}  // namespace

// The simulation, as tessera.engine.simulation calls it. Returns a dict: per candidate (in the
// given order) n, equity, se, win, win_se, pruned; and iterations, seconds, stopped.
py::dict simulate(const StaticEngine& eng, const LeaveTable* leaves, const WinTable* win,
                  const std::vector<int>& board, const std::vector<int>& rack,
                  const std::vector<int>& unseen, int opp_rack_size, int bag_count,
                  std::vector<int> scores, int scoreless, int passes, std::vector<int> exchanges,
                  const py::list& candidates, const std::vector<std::vector<int>>& opp_leaves,
                  int plies, int64_t iterations, double time_limit, int threads, uint64_t seed,
                  double z, int64_t min_prune, int batch, bool by_win, bool race) {
    const auto began = Clock::now();
    Setup s;
    s.eng = &eng;
    s.leaves = leaves;
    s.win = win;
    s.board = board_cells(eng, board);
    fill_counts(eng, rack, s.rack, "rack");
    if (static_cast<int>(unseen.size()) != eng.alpha())
        throw py::value_error("unseen: one count per tile id expected");
    int unseen_total = 0;
    for (int t = 0; t < MAX_TILES; t++) {
        s.unseen[t] = t < eng.alpha() ? unseen[t] : 0;
        if (s.unseen[t] < 0) throw py::value_error("unseen: a negative count");
        unseen_total += s.unseen[t];
    }
    if (opp_rack_size < 0 || opp_rack_size > eng.rules().rack_size || bag_count < 0 ||
        opp_rack_size + bag_count != unseen_total)
        throw py::value_error("the unseen tiles (" + std::to_string(unseen_total) +
                              ") are not the bag (" + std::to_string(bag_count) +
                              ") plus the opponent's rack (" + std::to_string(opp_rack_size) + ")");
    s.opp_rack_size = opp_rack_size;
    s.bag_count = bag_count;
    if (scores.size() != 2 || exchanges.size() != 2)
        throw py::value_error("scores and exchanges: two players");
    s.scores[0] = scores[0];
    s.scores[1] = scores[1];
    s.scoreless = scoreless;
    s.passes = passes;
    s.exchanges[0] = exchanges[0];
    s.exchanges[1] = exchanges[1];
    for (const auto& leave : opp_leaves) {
        int c[MAX_TILES];
        fill_counts(eng, leave, c, "opponent's leave");
        if (static_cast<int>(leave.size()) > opp_rack_size)
            throw py::value_error("an opponent's leave larger than the opponent's rack");
        for (int t = 0; t < MAX_TILES; t++)
            if (c[t] > s.unseen[t]) throw py::value_error("an opponent's leave the unseen tiles cannot supply");
        std::vector<uint8_t> v;
        for (int t : leave) v.push_back(static_cast<uint8_t>(face(t)));
        s.opp_leaves.push_back(std::move(v));
    }
    for (const auto& c : candidates) s.cands.push_back(eng.move_from_tuple(c.cast<py::tuple>()));
    if (s.cands.empty()) throw py::value_error("no candidates to simulate");
    {
        const movegen::CrossChecks root = movegen::cross_checks(eng.config(), s.board.data());
        int placed[movegen::MAX_DIM];
        for (const Move& m : s.cands) {
            s.cand_cross.push_back(root);
            const int n = Duel::placed_squares(eng, m, placed);
            if (n == 0) continue;
            std::vector<uint8_t> after = s.board;
            for (int i = 0, k = 0; i < m.len; i++)
                if (m.word[i]) after[placed[k++]] = m.word[i];
            movegen::update_cross_checks(eng.config(), after.data(), placed, n, s.cand_cross.back());
        }
    }
    if (plies < 0) throw py::value_error("plies must be >= 0");
    if (threads < 1) throw py::value_error("threads must be >= 1");
    if (batch < 1) throw py::value_error("batch must be >= 1");
    if (min_prune < 2) throw py::value_error("min_prune must be >= 2");
    if (iterations <= 0 && !(time_limit > 0))
        throw py::value_error("give an iteration count or a time limit");
    s.plies = plies;
    s.race = race;

    Deadline deadline;
    if (time_limit > 0) {
        deadline.set = true;
        deadline.at = began + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(time_limit));
    }
    const int nc = static_cast<int>(s.cands.size());
    std::vector<Stat> stats(nc);
    std::vector<double> cross(static_cast<size_t>(nc) * nc, 0.0);  // sums of x_a * x_b
    std::vector<int> active(nc);
    for (int c = 0; c < nc; c++) active[c] = c;
    int64_t done = 0;
    std::string stopped = "iterations";
    {
        py::gil_scoped_release release;
        while (iterations <= 0 || done < iterations) {
            if (deadline.passed()) {
                stopped = "time";
                break;
            }
            if (nc > 1 && active.size() == 1) {
                stopped = "pruned";
                break;
            }
            int nb = batch;
            if (iterations > 0) nb = static_cast<int>(std::min<int64_t>(nb, iterations - done));
            const int na = static_cast<int>(active.size());
            std::vector<Deal> deals(nb);
            for (int i = 0; i < nb; i++) deals[i] = make_deal(s, stream_seed(seed, done + i));
            const int items = nb * na;
            std::vector<double> eq(items), wn(items);
            std::vector<uint8_t> ok(items, 0);
            parallel_items(threads, items, [&](int k) {
                if (deadline.passed()) return;
                const int i = k / na, c = active[k % na];
                ok[k] = rollout(s, c, deals[i], deadline, eq[k], wn[k]) ? 1 : 0;
            });
            int complete = 0;
            while (complete < nb) {
                bool all = true;
                for (int a = 0; a < na; a++) all = all && ok[complete * na + a];
                if (!all) break;
                const double* x = by_win ? &wn[complete * na] : &eq[complete * na];
                for (int a = 0; a < na; a++) {
                    Stat& st = stats[active[a]];
                    const double e = eq[complete * na + a], w = wn[complete * na + a];
                    st.n++;
                    st.sum += e;
                    st.sumsq += e * e;
                    st.wsum += w;
                    st.wsumsq += w * w;
                    for (int b = 0; b < na; b++) cross[active[a] * nc + active[b]] += x[a] * x[b];
                }
                complete++;
            }
            done += complete;
            if (complete < nb) {
                stopped = "time";
                break;
            }
            if (done >= min_prune && na > 1) {
                auto mean = [&](int c) { return by_win ? stats[c].wmean() : stats[c].mean(); };
                int lead = active[0];
                for (int c : active)
                    if (mean(c) > mean(lead)) lead = c;
                std::vector<int> keep;
                for (int c : active) {
                    // every active candidate has been played from all `done` deals
                    const double d = mean(c) - mean(lead);
                    const double ss = cross[c * nc + c] - 2 * cross[c * nc + lead] +
                                      cross[lead * nc + lead];  // sum of squared differences
                    const double var = std::max(0.0, (ss - done * d * d) / (done - 1));
                    if (c != lead && d + z * std::sqrt(var / done) < 0) stats[c].pruned = true;
                    else keep.push_back(c);
                }
                active.swap(keep);
            }
        }
    }
    py::list out;
    const Stat& first = stats[0];
    for (int c = 0; c < nc; c++) {
        const Stat& st = stats[c];
        py::dict d;
        d["n"] = st.n;
        d["equity"] = st.mean();
        d["se"] = st.se_eq();
        d["win"] = st.wmean();
        d["win_se"] = st.se_win();
        d["pruned"] = st.pruned;
        // the lead over candidate 0 (by the ranking measure) and its standard error, deal by
        // deal, when both were played from every deal
        if (!st.pruned && !first.pruned && done >= 2) {
            const double lead = by_win ? st.wmean() - first.wmean() : st.mean() - first.mean();
            const double ss = cross[c * nc + c] - 2 * cross[c * nc] + cross[0];
            const double var = std::max(0.0, (ss - done * lead * lead) / (done - 1));
            d["lead"] = lead;
            d["lead_se"] = std::sqrt(var / done);
        } else {
            d["lead"] = py::none();
            d["lead_se"] = py::none();
        }
        out.append(d);
    }
    py::dict res;
    res["candidates"] = out;
    res["iterations"] = done;
    res["stopped"] = stopped;
    res["seconds"] = std::chrono::duration<double>(Clock::now() - began).count();
    return res;
}

// The opponent's possible leaves before their last move (see tessera.engine.inference): `samples`
// racks are drawn (random stream stream_seed(seed, k) for sample k shuffles the unseen tiles
// and takes the leave from the end); a rack is kept when the move played was within `margin`
// of the best static equity with it. For a play, the rack is the tiles played plus a leave of
// `leave_size` tiles; for an exchange of n tiles, `leave_size` + n tiles, and the leave is what
// the best n-tile exchange keeps. Returns the kept leaves and how many racks were tried.
py::dict infer(const StaticEngine& eng, const LeaveTable* leaves, const std::vector<int>& board,
               const py::tuple& played, int leave_size, const std::vector<int>& unseen,
               int bag_count, bool can_exchange, double margin, int samples,
               double time_limit, uint64_t seed) {
    const auto began = Clock::now();
    const std::vector<uint8_t> cells = board_cells(eng, board);
    const Move move = eng.move_from_tuple(played);
    if (move.kind == movegen::PASS) throw py::value_error("a pass tells nothing about the rack");
    if (static_cast<int>(unseen.size()) != eng.alpha())
        throw py::value_error("unseen: one count per tile id expected");
    if (samples < 1) throw py::value_error("samples must be >= 1");
    if (bag_count <= 0) throw py::value_error("inference needs tiles in the bag at the time of the move");
    std::vector<uint8_t> pool;
    for (int t = 0; t < eng.alpha(); t++) {
        if (unseen[t] < 0) throw py::value_error("unseen: a negative count");
        for (int k = 0; k < unseen[t]; k++) pool.push_back(static_cast<uint8_t>(t));
    }
    int played_counts[MAX_TILES] = {};
    int played_n = 0;
    if (move.kind == movegen::PLAY) {
        for (int i = 0; i < move.len; i++)
            if (move.word[i]) {
                played_counts[face(move.word[i])]++;
                played_n++;
            }
    }
    const int exchanged = move.kind == movegen::EXCHANGE ? move.len : 0;
    const int draw_n = leave_size + exchanged;
    if (leave_size < 0 || draw_n > static_cast<int>(pool.size()) ||
        leave_size + played_n + exchanged > eng.rules().rack_size)
        throw py::value_error("the leave size does not fit the rack and the unseen tiles");
    Deadline deadline;
    if (time_limit > 0) {
        deadline.set = true;
        deadline.at = began + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(time_limit));
    }
    py::list kept;
    int tried = 0;
    std::vector<std::vector<int>> found;
    {
        py::gil_scoped_release release;
        for (int k = 0; k < samples && !deadline.passed(); k++) {
            PyRandom rng;
            rng.seed(stream_seed(seed, static_cast<uint64_t>(k)));
            std::vector<uint8_t> tiles = pool;
            rng.shuffle(tiles);
            Position pos;
            pos.board = cells.data();
            std::memcpy(pos.counts, played_counts, sizeof(pos.counts));
            for (int j = 0; j < draw_n; j++) pos.counts[tiles[tiles.size() - 1 - j]]++;
            pos.bag_count = bag_count;
            pos.opp_points = 0;  // the bag held tiles: no endgame adjustment
            pos.can_exchange = can_exchange;
            tried++;
            if (move.kind == movegen::PLAY) {
                const std::vector<Move> best = eng.rank(pos, leaves, 1);
                int leave[MAX_TILES] = {};
                for (int j = 0; j < leave_size; j++) leave[tiles[tiles.size() - 1 - j]]++;
                const double mine = move.score + (leaves ? leaves->value_of_counts(leave) : 0.0);
                if (mine >= best.front().equity - margin) {
                    std::vector<int> l;
                    for (int t = 0; t < eng.alpha(); t++)
                        for (int c = 0; c < leave[t]; c++) l.push_back(t);
                    found.push_back(std::move(l));
                }
            } else {
                const std::vector<Move> all = eng.rank(pos, leaves, 0);
                for (const Move& m : all) {
                    if (m.kind != movegen::EXCHANGE || m.len != exchanged) continue;
                    if (m.equity >= all.front().equity - margin) {
                        int leave[MAX_TILES];
                        std::memcpy(leave, pos.counts, sizeof(leave));
                        for (int i = 0; i < m.len; i++) leave[m.word[i]]--;
                        std::vector<int> l;
                        for (int t = 0; t < eng.alpha(); t++)
                            for (int c = 0; c < leave[t]; c++) l.push_back(t);
                        found.push_back(std::move(l));
                    }
                    break;
                }
            }
        }
    }
    for (const auto& l : found) kept.append(py::tuple(py::cast(l)));
    py::dict res;
    res["leaves"] = kept;
    res["tried"] = tried;
    res["seconds"] = std::chrono::duration<double>(Clock::now() - began).count();
    return res;
}

}  // namespace tessera::engine

void register_sim(py::module_& m) {
    using namespace tessera::engine;
    py::class_<WinTable>(m, "WinTable",
                         "Win probability of the player to move by spread and unseen tiles.")
        .def(py::init<std::vector<double>, int, int, double, double>(), py::arg("values"),
             py::arg("rows"), py::arg("cols"), py::arg("spread_min"), py::arg("spread_step"))
        .def("p", &WinTable::p, py::arg("spread"), py::arg("unseen"));
    m.def("simulate", &simulate, py::arg("engine"), py::arg("leaves"), py::arg("win"),
          py::arg("board"), py::arg("rack"), py::arg("unseen"), py::arg("opp_rack_size"),
          py::arg("bag_count"), py::arg("scores"), py::arg("scoreless"), py::arg("passes"),
          py::arg("exchanges"), py::arg("candidates"), py::arg("opp_leaves"), py::arg("plies"),
          py::arg("iterations"), py::arg("time_limit"), py::arg("threads"), py::arg("seed"),
          py::arg("z"), py::arg("min_prune"), py::arg("batch"), py::arg("by_win"),
          py::arg("race") = false, "Monte Carlo simulation of candidate moves (see sim.cpp).");
    m.def("infer", &infer, py::arg("engine"), py::arg("leaves"), py::arg("board"),
          py::arg("played"), py::arg("leave_size"), py::arg("unseen"), py::arg("bag_count"),
          py::arg("can_exchange"), py::arg("margin"), py::arg("samples"),
          py::arg("time_limit"), py::arg("seed"),
          "The opponent's leaves consistent with their last move (see sim.cpp).");
    m.def("stream_seed", &stream_seed, py::arg("seed"), py::arg("index"),
          "The seed of random stream `index` of a simulation seeded with `seed`.");
}
