// The referee: one game, judged by the core.
#include "referee.h"

#include <ctime>

#include "notation/usi.h"

namespace hisha::match {

using core::Color;
using protocol::MoveReply;

const char* describe(Failure f) {
    switch (f) {
    case Failure::None: return "none";
    case Failure::IllegalMove: return "illegal move";
    case Failure::TimeUp: return "time up";
    case Failure::Late: return "time up (late answer)";
    case Failure::Hang: return "time up (no answer: hang)";
    case Failure::Crash: return "crash";
    case Failure::StartFailed: return "failed to start";
    case Failure::Refused: return "driver failure (aborted)";
    case Failure::Claim: return "engine stopped playing (aborted)";
    case Failure::Cancelled: return "cancelled";
    }
    return "";
}

std::string GameOutcome::result_text() const {
    switch (winner) {
    case core::Winner::Black: return "1-0";
    case core::Winner::White: return "0-1";
    case core::Winner::Draw: return "1/2-1/2";
    case core::Winner::None: return "*";
    }
    return "*";
}

namespace {

std::string now_text() {
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y/%m/%d %H:%M:%S", &tm);
    return buf;
}

const char* color_name(Color c) { return c == core::BLACK ? "Black" : "White"; }

class Referee {
public:
    Referee(protocol::EnginePlayer& black, protocol::EnginePlayer& white, const Opening& opening,
            const GameSettings& settings)
        : players_{&black, &white}, opening_(opening), settings_(settings), game_(settings.rules),
          clock_(settings.tc[core::BLACK], settings.tc[core::WHITE]) {}

    GameOutcome run();

private:
    bool set_up();
    void turn();
    void play_move(Color c, const MoveReply& r);
    void declare(Color c, const MoveReply& r);
    void adjudicate(Color c, const MoveReply& r);
    /// Ends the game against `c` (or aborts it when `winner` is None) for a reason the core
    /// has no verdict for.
    void forfeit(Color c, core::Winner winner, core::EndReason reason, Failure f, std::string detail);
    void finish();
    std::string side(Color c) const { return std::string(color_name(c)) + " (" + players_[c]->name() + ")"; }

    protocol::EnginePlayer* players_[core::COLOR_NB];
    const Opening& opening_;
    const GameSettings& settings_;
    core::Game game_;
    GameClock clock_;
    GameOutcome out_;
    bool forfeited_ = false;
    int hopeless_[core::COLOR_NB] = {0, 0};
    std::optional<int> last_time_ms_;
};

bool Referee::set_up() {
    auto& rec = out_.record;
    if (auto r = game_.reset(opening_.start_sfen); !r) {
        forfeit(core::BLACK, core::Winner::None, core::EndReason::Abort, Failure::Refused,
                "opening " + opening_.name + ": " + r.error().to_string());
        return false;
    }
    rec.start_sfen = game_.start_sfen();
    if (auto h = game_.handicap(); h && *h != core::Handicap::Even)
        rec.set_handicap(*h);
    for (core::Move m : opening_.moves) {
        if (!game_.play(m) || game_.over()) {
            forfeit(core::BLACK, core::Winner::None, core::EndReason::Abort, Failure::Refused,
                    "opening " + opening_.name + " cannot be played to its end");
            return false;
        }
        rec.moves.push_back(notation::MoveRecord{m, std::nullopt, {}, {}});
    }
    rec.start_comments.push_back("opening: " + opening_.name);
    for (Color c : {core::BLACK, core::WHITE}) {
        protocol::GameSetup setup{game_.start_sfen(), c, clock_.limits(c)};
        if (auto r = players_[c]->new_game(setup); !r) {
            forfeit(c, core::winner_of(~c), core::EndReason::Abort, Failure::StartFailed, side(c) + ": " + r.error());
            return false;
        }
    }
    return true;
}

void Referee::forfeit(Color c, core::Winner winner, core::EndReason reason, Failure f, std::string detail) {
    forfeited_ = true;
    out_.winner = winner;
    out_.reason = reason;
    out_.failure = f;
    out_.culprit = c;
    out_.detail = std::move(detail);
}

void Referee::turn() {
    Color c = game_.position().side_to_move();
    protocol::MoveRequest req;
    req.limits = clock_.limits(c);
    int allowed = clock_.allowed_ms(c);
    req.deadline_ms = allowed < 0 ? settings_.move_timeout_ms : allowed + settings_.margin_ms[c];
    req.grace_ms = settings_.grace_ms;
    MoveReply r = players_[c]->think(game_, req);
    last_time_ms_ = r.elapsed_ms;
    std::string allowed_text = allowed < 0 ? std::to_string(settings_.move_timeout_ms) + " ms (move timeout)"
                                           : std::to_string(allowed) + " ms + " + std::to_string(settings_.margin_ms[c])
                                                 + " ms margin";
    switch (r.kind) {
    case MoveReply::Kind::Move: play_move(c, r); return;
    case MoveReply::Kind::Win: declare(c, r); return;
    case MoveReply::Kind::Resign:
        game_.resign(c);
        out_.culprit = c;
        out_.detail = side(c) + " resigned" + (r.detail.empty() ? "" : ": " + r.detail);
        return;
    case MoveReply::Kind::Late:
    case MoveReply::Kind::Hang:
        game_.time_up(c);
        out_.culprit = c;
        out_.failure = r.kind == MoveReply::Kind::Late ? Failure::Late : Failure::Hang;
        out_.detail = side(c) + " lost on time: " + r.detail + "; allowed " + allowed_text;
        return;
    case MoveReply::Kind::Crash:
        forfeit(c, core::winner_of(~c), core::EndReason::Abort, Failure::Crash, side(c) + " crashed: " + r.detail);
        return;
    case MoveReply::Kind::Refused:
    case MoveReply::Kind::Claim:
        forfeit(c, core::Winner::None, core::EndReason::Abort,
                r.kind == MoveReply::Kind::Claim ? Failure::Claim : Failure::Refused, side(c) + ": " + r.detail);
        return;
    }
}

void Referee::play_move(Color c, const MoveReply& r) {
    auto m = notation::parse_usi_move(game_.position(), r.text);
    if (!m) {
        game_.lose_by_illegal_move(c, r.text + ": " + m.error().message);
        out_.culprit = c;
        out_.failure = Failure::IllegalMove;
        out_.detail = side(c) + " played an illegal move: " + r.text + " (" + m.error().message + ")";
        return;
    }
    int allowed = clock_.allowed_ms(c);
    if (!clock_.charge(c, r.elapsed_ms, settings_.margin_ms[c])) {
        game_.time_up(c);
        out_.culprit = c;
        out_.failure = Failure::TimeUp;
        out_.detail = side(c) + " lost on time: its move took " + std::to_string(r.elapsed_ms) + " ms, allowed "
                    + std::to_string(allowed) + " ms + " + std::to_string(settings_.margin_ms[c]) + " ms margin";
        return;
    }
    (void)game_.play(*m);  // checked by parse_usi_move
    notation::MoveRecord mr{*m, r.elapsed_ms, {}, {}};
    if (r.score)
        mr.comments.push_back("score " + std::to_string(*r.score) + (r.depth ? " depth " + std::to_string(r.depth) : ""));
    out_.record.moves.push_back(std::move(mr));
    last_time_ms_.reset();
    adjudicate(c, r);
}

void Referee::declare(Color c, const MoveReply& r) {
    if (!clock_.charge(c, r.elapsed_ms, settings_.margin_ms[c])) {
        game_.time_up(c);
        out_.culprit = c;
        out_.failure = Failure::TimeUp;
        out_.detail = side(c) + " declared after its time ran out";
        return;
    }
    if (auto d = game_.declare(); !d) {
        std::string why = core::describe(d.error());
        game_.lose_by_illegal_move(c, "declaration refused: " + why);
        out_.culprit = c;
        out_.failure = Failure::IllegalMove;
        out_.detail = side(c) + " declared a win that does not hold: " + why;
        return;
    }
    out_.culprit = c;
}

void Referee::adjudicate(Color c, const MoveReply& r) {
    const Adjudication& a = settings_.adjudication;
    if (a.resign_score <= 0 || a.resign_moves <= 0 || game_.over())
        return;
    hopeless_[c] = r.score && *r.score <= -a.resign_score ? hopeless_[c] + 1 : 0;
    if (hopeless_[c] < a.resign_moves)
        return;
    game_.resign(c);
    out_.culprit = c;
    out_.adjudicated = true;
    out_.detail = "adjudicated: " + side(c) + "'s own score stayed at or below -" + std::to_string(a.resign_score)
                + " for " + std::to_string(a.resign_moves) + " moves";
}

void Referee::finish() {
    auto& rec = out_.record;
    if (!forfeited_) {
        const core::GameResult& res = game_.result();
        out_.winner = res.winner;
        out_.reason = res.reason;
        if (out_.detail.empty())
            out_.detail = std::string(core::describe(res.reason)) + (res.detail.empty() ? "" : ": " + res.detail);
    }
    rec.result = notation::RecordResult{out_.winner, out_.reason, out_.culprit, last_time_ms_};
    rec.set_header(notation::key::END_TIME, now_text());
    rec.set_header(notation::key::NOTE, out_.detail);
    out_.plies = int(game_.moves().size());
    for (Color c : {core::BLACK, core::WHITE})
        players_[c]->game_over(core::GameResult{out_.winner, out_.reason, out_.detail}, c);
}

GameOutcome Referee::run() {
    auto& rec = out_.record;
    rec.set_header(notation::key::EVENT, settings_.event);
    rec.set_header(notation::key::START_TIME, now_text());
    rec.set_header(notation::key::BLACK, players_[core::BLACK]->name());
    rec.set_header(notation::key::WHITE, players_[core::WHITE]->name());
    std::string tb = settings_.tc[core::BLACK].to_string(), tw = settings_.tc[core::WHITE].to_string();
    rec.set_header(notation::key::TIME_CONTROL, tb == tw ? tb : "Black " + tb + ", White " + tw);
    if (set_up()) {
        while (!game_.over() && !forfeited_) {
            if (settings_.cancel && settings_.cancel->load()) {
                forfeit(game_.position().side_to_move(), core::Winner::None, core::EndReason::Abort,
                        Failure::Cancelled, "the match was stopped");
                break;
            }
            turn();
        }
    }
    finish();
    return std::move(out_);
}

}  // namespace

GameOutcome play_game(protocol::EnginePlayer& black, protocol::EnginePlayer& white, const Opening& opening,
                      const GameSettings& settings) {
    return Referee(black, white, opening, settings).run();
}

}  // namespace hisha::match
