#include "server/proto/game_record.h"

#include <cctype>
#include <charconv>

#include "core/handicap.h"
#include "core/text.h"

namespace hisha::server::proto {

std::string record_start_sfen(const service::LiveGame& g) {
    bool handicap = !g.log.empty() && g.log[0].kind == service::MoveKind::Handicap;
    core::Position pos;
    (void)pos.set(handicap ? g.log[0].start_sfen : g.row.start_sfen);
    return pos.sfen();
}

notation::GameRecord game_record(const service::LiveGame& g) {
    notation::GameRecord rec;
    rec.set_header(notation::key::BLACK, g.row.black);
    rec.set_header(notation::key::WHITE, g.row.white);
    rec.set_header(notation::key::EVENT, "hisha game " + std::to_string(g.row.id));
    rec.set_header(notation::key::TIME_CONTROL, g.row.tc.describe());
    const auto& log = g.log;
    std::size_t first = 0;
    if (!log.empty() && log[0].kind == service::MoveKind::Handicap) {
        rec.start_sfen = record_start_sfen(g);
        if (auto h = core::handicap_from_sfen(rec.start_sfen))
            rec.set_handicap(*h);
        first = 1;
    }
    for (std::size_t i = first; i < log.size(); ++i) {
        if (!log[i].move)
            continue;
        notation::MoveRecord mr;
        mr.move = log[i].move;
        mr.time_ms = int(log[i].spent_ms);
        if (!log[i].comment.empty())
            mr.comments.push_back(record_comment(log[i].comment));
        rec.moves.push_back(mr);
    }
    rec.result.winner = service::winner_from_name(g.row.winner);
    rec.result.reason = service::reason_from_name(g.row.reason);
    if (rec.result.reason == core::EndReason::Resignation && !log.empty())
        rec.result.actor = log.back().mover;
    else if (rec.result.reason != core::EndReason::None)
        rec.result.actor = g.to_move();
    return rec;
}

std::string record_comment(std::string_view move_comment) { return "*" + std::string(move_comment); }

std::optional<MoveEval> read_eval(std::string_view c) {
    if (!c.starts_with('*'))
        return std::nullopt;
    c.remove_prefix(1);
    std::vector<std::string> words = text::words(c);
    if (words.empty())
        return std::nullopt;
    MoveEval e;
    std::string_view s = words[0];
    if (s.starts_with('+') && s.size() > 1)
        s.remove_prefix(1);
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), e.score);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (!looks_like_csa_move(words[i]))
            break;  // the line ends at the first word that is not a CSA move
        e.pv.push_back(words[i]);
    }
    return e;
}

bool looks_like_csa_move(std::string_view s) {
    if (s.size() != 7 || (s[0] != '+' && s[0] != '-'))
        return false;
    for (std::size_t i = 1; i <= 4; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
    return std::isupper(static_cast<unsigned char>(s[5])) && std::isupper(static_cast<unsigned char>(s[6]));
}

}  // namespace hisha::server::proto
