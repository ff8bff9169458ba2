// Tsume puzzles: finding them, their file lines, judging attempts (puzzle.h).
#include "puzzle.h"

#include <fmt/format.h>

#include <sstream>

#include "core/movegen.h"
#include "core/rules.h"
#include "notation/usi.h"

namespace hisha::puzzle {

namespace {

tsume::Limits limits_of(const Budget& b) {
    tsume::Limits l;
    l.max_nodes = b.nodes;
    l.memory_mb = b.memory_mb;
    l.shortest = true;
    return l;
}

// The attacker (to move) mates within `plies`: Yes, No, or Unknown when the budget ran out.
// `length` gets the mate's length when Yes.
Mates attacker_mates(const core::Position& pos, int plies, tsume::Solver& solver, const Budget& b, int& length) {
    if (plies < 1)
        return Mates::No;
    if (b.total_nodes && b.spent >= b.total_nodes)
        return Mates::Unknown;
    tsume::Result r = solver.solve(pos, limits_of(b));
    b.spent += r.nodes;
    if ((r.status == tsume::Status::Mate || r.status == tsume::Status::Timeout) && !r.pv.empty() && r.length <= plies) {
        length = r.length;
        return Mates::Yes;
    }
    if (r.status == tsume::Status::NoMate || (r.status == tsume::Status::Mate && r.exact))
        return Mates::No;
    return Mates::Unknown;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep))
        out.push_back(cur);
    return out;
}

std::string sfen_without_ply(const std::string& sfen) {
    std::size_t last = sfen.find_last_of(' ');
    return last == std::string::npos ? sfen : sfen.substr(0, last);
}

}  // namespace

const char* describe(Verdict v) {
    switch (v) {
    case Verdict::Puzzle: return "puzzle";
    case Verdict::NoShortMate: return "no short mate";
    case Verdict::NotUnique: return "another first move mates as fast";
    case Verdict::Undecided: return "undecided within the budget";
    }
    return "?";
}

Mates mates_within(core::Position& pos, int plies, tsume::Solver& solver, const Budget& budget, core::Move* refutation,
                   core::Move* defence) {
    core::MoveList<core::LEGAL, true> replies(pos);
    if (replies.size() == 0)
        return pos.in_check() ? Mates::Yes : Mates::No;  // mated, or (not a check) stalemate-like: no mate
    Mates verdict = Mates::Yes;
    int longest = -1;
    for (const core::ScoredMove& sm : replies) {
        pos.play(sm.move);
        int length = 0;
        Mates m = attacker_mates(pos, plies - 1, solver, budget, length);
        pos.unplay();
        if (m == Mates::No) {
            if (refutation)
                *refutation = sm.move;
            return Mates::No;
        }
        if (m == Mates::Unknown)
            verdict = Mates::Unknown;
        else if (length > longest) {
            longest = length;
            if (defence)
                *defence = sm.move;
        }
    }
    return verdict;
}

Found find(core::Position& pos, int max_plies, tsume::Solver& solver, const Budget& budget) {
    Found f;
    tsume::Result r = solver.solve(pos, limits_of(budget));
    if (r.status != tsume::Status::Mate || !r.exact || r.length > max_plies || int(r.pv.size()) != r.length)
        return f;
    core::MoveList<core::LEGAL, true> firsts(pos);
    for (const core::ScoredMove& sm : firsts) {
        if (sm.move == r.pv[0] || !pos.gives_check(sm.move))
            continue;
        pos.play(sm.move);
        Mates m = mates_within(pos, r.length - 1, solver, budget);
        pos.unplay();
        if (m != Mates::No) {
            f.verdict = m == Mates::Yes ? Verdict::NotUnique : Verdict::Undecided;
            f.other = sm.move;
            return f;
        }
    }
    f.verdict = Verdict::Puzzle;
    f.solution = r.pv;
    return f;
}

std::string puzzle_id(const std::string& sfen) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : sfen_without_ply(sfen)) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return fmt::format("{:08x}", std::uint32_t(h ^ (h >> 32)));
}

std::string to_line(const Puzzle& p) {
    std::string moves;
    for (const std::string& m : p.solution)
        moves += (moves.empty() ? "" : " ") + m;
    std::string source = p.source;
    for (char& c : source)
        if (c == '\t' || c == '\n' || c == '\r')
            c = ' ';
    return fmt::format("{}\t{}\t{}\t{}\t{}\t{}", p.id, p.sfen, moves, p.length, source, p.ply);
}

std::optional<Puzzle> from_line(const std::string& line, std::string& error) {
    std::vector<std::string> f = split(line, '\t');
    if (f.size() != 6) {
        error = fmt::format("{} fields, not 6 (id, sfen, solution, length, source, ply)", f.size());
        return std::nullopt;
    }
    Puzzle p;
    p.id = f[0];
    p.sfen = f[1];
    p.solution = split(f[2], ' ');
    p.source = f[4];
    try {
        p.length = std::stoi(f[3]);
        p.ply = std::stoi(f[5]);
    } catch (...) {
        error = "length and ply are numbers";
        return std::nullopt;
    }
    if (p.id.empty() || p.id.size() > 32
        || p.id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
        error = "the id is 1..32 lower-case letters and digits";
        return std::nullopt;
    }
    core::Position pos;
    if (auto r = pos.set(p.sfen); !r) {
        error = "bad sfen: " + r.error().to_string();
        return std::nullopt;
    }
    if (p.length < 1 || p.length % 2 == 0 || int(p.solution.size()) != p.length) {
        error = "the length is odd and equals the number of solution moves";
        return std::nullopt;
    }
    for (const std::string& text : p.solution) {
        auto m = notation::parse_usi_move(pos, text);
        if (!m) {
            error = "solution move " + text + ": " + m.error().to_string();
            return std::nullopt;
        }
        pos.play(*m);
    }
    if (!core::is_checkmate(pos)) {
        error = "the solution does not end in mate";
        return std::nullopt;
    }
    return p;
}

}  // namespace hisha::puzzle
