// Opening book reading, probing, building and writing.
#include "book.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "core/movegen.h"
#include "notation/coordinate.h"
#include "notation/usi.h"

namespace hisha::engine {

using namespace core;

namespace {
ParseError book_error(int line, int col, std::string msg) {
    return ParseError{ParseErrorCode::BadMove, std::move(msg), line, col};
}

// A move in USI form ("7g7f", "2d2c+", "P*5e") or GNU Shogi's short forms ("P7f").
Result<Move, ParseError> read_move(const Position& pos, std::string_view token, int line, int col) {
    if (auto m = notation::parse_usi_move(pos, token, line, col))
        return *m;
    auto c = notation::coordinate_candidates(pos, token, line, col);
    if (c && c->size() == 1)
        return c->front();
    if (c && c->size() == 2 && c->at(0).from() == c->at(1).from() && c->at(0).to() == c->at(1).to())
        return c->at(0).is_promotion() ? c->at(1) : c->at(0);  // no '+': not promoting
    return unexpected(book_error(line, col, "'" + std::string(token) + "' is not a legal move here"));
}
}  // namespace

void Book::add(const Position& pos, Move m, int weight) {
    auto& v = table_[pos.key()];
    sfens_.emplace(pos.key(), pos.sfen(false));
    for (Entry& e : v)
        if (e.move == m.to_move16()) {
            e.weight += weight;
            return;
        }
    v.push_back(Entry{m.to_move16(), weight, false});
}

void Book::forbid(const Position& pos, Move m) {
    auto& v = table_[pos.key()];
    sfens_.emplace(pos.key(), pos.sfen(false));
    for (Entry& e : v)
        if (e.move == m.to_move16()) {
            e.forbidden = true;
            return;
        }
    v.push_back(Entry{m.to_move16(), 0, true});
}

Result<void, ParseError> Book::load(std::string_view text) {
    // The SFEN format has "sfen" lines; anything else is GNU Shogi's format.
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);)
        if (line.rfind("sfen ", 0) == 0)
            return load_sfen(text);
    return load_gnu(text);
}

Result<void, ParseError> Book::load_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return unexpected(ParseError{ParseErrorCode::Empty, "cannot open book file " + path, 0, 0});
    std::stringstream ss;
    ss << f.rdbuf();
    auto r = load(ss.str());
    if (!r) {
        ParseError e = r.error();
        e.message = path + ": " + e.message;
        return unexpected(e);
    }
    return {};
}

Result<void, ParseError> Book::load_gnu(std::string_view text) {
    std::istringstream in{std::string(text)};
    Position pos;
    int lineno = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineno;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (!line.empty() && line[0] == '#') {  // a new opening from the start
            pos.set_startpos();
            continue;
        }
        std::size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
                ++i;
            std::size_t j = i;
            while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])))
                ++j;
            if (j == i)
                break;
            std::string token = line.substr(i, j - i);
            bool never = !token.empty() && token.back() == '?';
            if (never)
                token.pop_back();
            auto m = read_move(pos, token, lineno, int(i) + 1);
            if (!m)
                return unexpected(m.error());
            if (never)
                forbid(pos, *m);
            else
                add(pos, *m);
            pos.play(*m);
            i = j;
        }
    }
    return {};
}

Result<void, ParseError> Book::load_sfen(std::string_view text) {
    std::istringstream in{std::string(text)};
    Position pos;
    bool have = false;
    int lineno = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineno;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        if (line.rfind("sfen ", 0) == 0) {
            auto r = pos.set(std::string_view(line).substr(5));
            if (!r) {
                ParseError e = r.error();
                e.line = lineno;
                e.column += 5;
                return unexpected(e);
            }
            have = true;
            continue;
        }
        if (!have)
            return unexpected(book_error(lineno, 1, "a move line before any sfen line"));
        std::istringstream ls(line);
        std::string move, last;
        ls >> move;
        for (std::string t; ls >> t;)
            last = t;
        bool never = !move.empty() && move.back() == '?';
        if (never)
            move.pop_back();
        auto m = read_move(pos, move, lineno, 1);
        if (!m)
            return unexpected(m.error());
        int weight = 1;
        if (!last.empty()) {
            char* end = nullptr;
            long w = std::strtol(last.c_str(), &end, 10);
            if (*end || w < 0)
                return unexpected(
                    book_error(lineno, int(line.rfind(last)) + 1, "weight '" + last + "' is not a count"));
            weight = int(std::min<long>(w, 1 << 30));
        }
        if (never)
            forbid(pos, *m);
        else
            add(pos, *m, weight);
    }
    return {};
}

std::vector<Book::Entry> Book::moves(const Position& pos) const {
    std::vector<Entry> out;
    auto it = table_.find(pos.key());
    if (it == table_.end())
        return out;
    for (const Entry& e : it->second) {
        Move m = pos.to_move(e.move);
        if (!e.forbidden && e.weight > 0 && m && pos.is_legal(m))
            out.push_back(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.weight > b.weight; });
    return out;
}

Move Book::probe(const Position& pos, std::mt19937_64& rng) const {
    auto v = moves(pos);
    std::int64_t total = 0;
    for (const Entry& e : v)
        total += e.weight;
    if (total <= 0)
        return Move::none();
    std::int64_t pick = std::int64_t(rng() % std::uint64_t(total));
    for (const Entry& e : v)
        if ((pick -= e.weight) < 0)
            return pos.to_move(e.move);
    return Move::none();
}

void Book::add_record(const notation::GameRecord& rec, int plies) {
    Position pos;
    if (!pos.set(rec.start_sfen))
        return;
    for (int i = 0; i < int(rec.moves.size()) && i < plies; ++i) {
        Move m = rec.moves[i].move;
        if (!pos.is_legal(m))
            return;
        bool winner = (rec.result.winner == Winner::Black && pos.side_to_move() == BLACK)
                   || (rec.result.winner == Winner::White && pos.side_to_move() == WHITE);
        add(pos, m, winner ? 2 : 1);
        pos.play(m);
    }
}

void Book::prune(int min_weight) {
    for (auto it = table_.begin(); it != table_.end();) {
        auto& v = it->second;
        v.erase(
            std::remove_if(v.begin(), v.end(), [&](const Entry& e) { return !e.forbidden && e.weight < min_weight; }),
            v.end());
        if (v.empty()) {
            sfens_.erase(it->first);
            it = table_.erase(it);
        } else
            ++it;
    }
}

std::string Book::to_text() const {
    std::map<std::string, const std::vector<Entry>*> ordered;
    for (const auto& [key, v] : table_)
        ordered[sfens_.at(key)] = &v;
    std::string out = "#HISHA-BOOK 1\n";
    for (const auto& [sfen, v] : ordered) {
        Position pos;
        if (!pos.set(sfen))
            continue;
        out += "sfen " + sfen + "\n";
        std::vector<Entry> sorted = *v;
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const Entry& a, const Entry& b) { return a.weight > b.weight; });
        for (const Entry& e : sorted)
            out += to_usi(pos.to_move(e.move)) + (e.forbidden ? "?" : "") + " " + std::to_string(e.weight) + "\n";
    }
    return out;
}

}  // namespace hisha::engine
