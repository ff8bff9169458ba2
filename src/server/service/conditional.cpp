// Conditional moves: the tree's text, its check against the position, and the service's
// part (stored per game and player; played for the player when the opponent's move matches).
#include "server/service/conditional.h"

#include <cctype>

#include "notation/usi.h"
#include "server/service/log.h"
#include "server/service/service.h"
#include "server/store/row_codec.h"

namespace hisha::server::service {

namespace {

void write_branches(const std::vector<ConditionalBranch>& bs, std::string& out) {
    for (const auto& b : bs) {
        if (!out.empty() && out.back() != '(')
            out += ' ';
        out += b.move + ' ' + b.reply;
        if (!b.then.empty()) {
            out += " (";
            write_branches(b.then, out);
            out += ')';
        }
    }
}

// A reader of BRANCHES: words separated by spaces, '(' and ')' words of their own.
struct TreeReader {
    std::string_view text;
    std::size_t at = 0;
    std::string_view word() {
        while (at < text.size() && text[at] == ' ')
            ++at;
        std::size_t start = at;
        if (at < text.size() && (text[at] == '(' || text[at] == ')'))
            return text.substr(at++, 1);
        while (at < text.size() && text[at] != ' ' && text[at] != '(' && text[at] != ')')
            ++at;
        return text.substr(start, at - start);
    }
    std::string_view peek() {
        std::size_t keep = at;
        std::string_view w = word();
        at = keep;
        return w;
    }
    bool branches(std::vector<ConditionalBranch>& out, int depth) {
        if (depth > MAX_CONDITIONAL_DEPTH)
            return false;
        for (std::string_view w = peek(); !w.empty() && w != ")"; w = peek()) {
            ConditionalBranch b;
            b.move = std::string(word());
            b.reply = std::string(word());
            if (b.move == "(" || b.reply.empty() || b.reply == "(" || b.reply == ")")
                return false;
            if (peek() == "(") {
                word();
                if (!branches(b.then, depth + 1) || word() != ")")
                    return false;
            }
            out.push_back(std::move(b));
        }
        return true;
    }
};

int count_branches(const std::vector<ConditionalBranch>& bs) {
    int n = 0;
    for (const auto& b : bs)
        n += 1 + count_branches(b.then);
    return n;
}

// Checks one level in `pos` and, through it, the levels below; `where` names the path so far.
Reply<void> check_level(core::Position& pos, std::vector<ConditionalBranch>& bs, int depth, const std::string& where) {
    if (depth > MAX_CONDITIONAL_DEPTH)
        return fail("the tree is deeper than " + std::to_string(MAX_CONDITIONAL_DEPTH) + " levels");
    for (std::size_t i = 0; i < bs.size(); ++i) {
        auto& b = bs[i];
        auto m = notation::parse_usi_move(pos, b.move);
        if (!m)
            return fail(where + "the opponent's move '" + b.move + "': " + m.error().message);
        b.move = notation::write_usi_move(*m);
        for (std::size_t j = 0; j < i; ++j)
            if (bs[j].move == b.move)
                return fail(where + "the opponent's move " + b.move + " has two branches");
        pos.play(*m);
        auto r = notation::parse_usi_move(pos, b.reply);
        if (!r) {
            pos.unplay();
            return fail(where + "the reply '" + b.reply + "' after " + b.move + ": " + r.error().message);
        }
        b.reply = notation::write_usi_move(*r);
        pos.play(*r);
        auto below = check_level(pos, b.then, depth + 1, where + b.move + " " + b.reply + ", ");
        pos.unplay();
        pos.unplay();
        if (!below)
            return below;
    }
    return {};
}

}  // namespace

std::string write_conditional(const ConditionalTree& t) {
    std::string branches;
    write_branches(t.branches, branches);
    return std::to_string(t.ply) + (branches.empty() ? "" : " " + branches);
}

std::optional<ConditionalTree> read_conditional(std::string_view text) {
    ConditionalTree t;
    std::size_t digits = 0;
    while (digits < text.size() && digits < 6 && std::isdigit(static_cast<unsigned char>(text[digits])))
        ++digits;
    if (digits == 0)
        return std::nullopt;
    t.ply = std::stoi(std::string(text.substr(0, digits)));
    TreeReader r{text.substr(digits)};
    if (!r.branches(t.branches, 1) || !r.word().empty())
        return std::nullopt;
    return t;
}

Reply<std::vector<ConditionalBranch>> check_conditional(core::Position& pos, std::vector<ConditionalBranch> branches) {
    if (int n = count_branches(branches); n > MAX_CONDITIONAL_BRANCHES)
        return fail("the tree has " + std::to_string(n) + " branches, more than "
                    + std::to_string(MAX_CONDITIONAL_BRANCHES));
    if (auto r = check_level(pos, branches, 1, ""); !r)
        return core::unexpected(r.error());
    return branches;
}

// --- the service's part

Reply<ConditionalTree> Service::conditional(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    ConditionalTree none{int(s->game->row.moves.size()), {}};
    auto t = read_conditional(store_.conditional(game_id, store::rows::key_of(user)));
    // A tree made for an earlier position (an undo took its move back) no longer applies.
    if (!t || t->ply != int(s->game->row.moves.size()) || !s->game->active())
        return none;
    return *t;
}

Reply<ConditionalTree> Service::set_conditional(std::string_view user, std::int64_t game_id,
                                                std::vector<ConditionalBranch> branches) {
    auto s = seat(user, game_id, Need::Active);
    if (!s)
        return core::unexpected(s.error());
    LiveGame& g = *s->game;
    if (g.to_move() == s->color)
        return fail("it is your turn: conditional moves answer the opponent's move");
    auto pos = g.game.position().clone();
    auto checked = check_conditional(*pos, std::move(branches));
    if (!checked)
        return core::unexpected(checked.error());
    ConditionalTree t{int(g.row.moves.size()), std::move(*checked)};
    if (!store_.save_conditional(game_id, store::rows::key_of(user), t.empty() ? "" : write_conditional(t)))
        return fail("storage error: " + store_.last_error());
    log_event("conditional_set", {{"game", std::to_string(game_id)},
                                  {"user", std::string(user)},
                                  {"branches", std::to_string(count_branches(t.branches))}});
    return t;
}

Reply<void> Service::clear_conditional(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    if (!store_.save_conditional(game_id, store::rows::key_of(user), ""))
        return fail("storage error: " + store_.last_error());
    return {};
}

// After a move: while the side to move has a tree whose branch the last move matches, its
// reply is played for them (through play(), as any move: clock, record, events, rules) and the
// branch's subtree kept; a move no branch has clears the tree. A loop, not recursion: each
// reply may meet the other player's tree.
void Service::play_conditional(std::int64_t game_id) {
    playing_conditional_ = true;
    for (int turn = 0; turn <= 2 * MAX_CONDITIONAL_BRANCHES; ++turn) {
        LiveGame* g = live(game_id);
        if (!g || g->row.moves.empty())
            break;
        std::string player = g->player(g->to_move()), key = store::rows::key_of(player);
        std::string text = store_.conditional(game_id, key);
        if (text.empty())
            break;
        auto t = read_conditional(text);
        int ply = int(g->row.moves.size());
        const ConditionalBranch* hit = nullptr;
        if (t && t->ply == ply - 1 && g->active() && !g->game.over())
            for (const auto& b : t->branches)
                if (b.move == g->row.moves.back().text)
                    hit = &b;
        ConditionalTree rest{ply + 1, hit ? hit->then : std::vector<ConditionalBranch>{}};
        std::string reply = hit ? hit->reply : "";
        (void)store_.save_conditional(game_id, key, rest.empty() ? "" : write_conditional(rest));
        if (!hit)
            break;
        auto r = play(player, game_id, reply);
        log_event("conditional_played", {{"game", std::to_string(game_id)},
                                         {"user", player},
                                         {"move", reply},
                                         {"result", r ? "played" : r.error()}});
        if (!r) {
            (void)store_.save_conditional(game_id, key, "");
            break;
        }
    }
    playing_conditional_ = false;
}

}  // namespace hisha::server::service
