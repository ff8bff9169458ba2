// Clock arithmetic shared by every protocol; the server's timer asks time_allowed() when a
// turn starts and calls the service back at that moment.
#include "server/service/clock.h"

#include <algorithm>

#include "core/numbers.h"

namespace hisha::server::service {

std::string TimeControl::describe() const {
    auto secs = [](Millis ms) { return std::to_string(ms / 1000); };
    switch (kind) {
    case TimeKind::Correspondence: return "corr-" + std::to_string(days_per_move) + "d";
    case TimeKind::Byoyomi: return secs(main_ms) + "-" + secs(byoyomi_ms);
    case TimeKind::Fischer: return secs(main_ms) + "-" + secs(increment_ms) + "F";
    case TimeKind::SuddenDeath: return secs(main_ms) + "-0";
    }
    return "?";
}

std::optional<TimeControl> parse_time_control(std::string_view text) {
    TimeControl tc;
    if (text == "corr" || text.starts_with("corr-")) {
        tc.kind = TimeKind::Correspondence;
        if (text.size() > 5) {
            std::string_view d = text.substr(5);
            if (d.ends_with('d'))
                d.remove_suffix(1);
            auto days = core::to_number<long>(d);
            if (!days || *days < 1 || *days > 365)
                return std::nullopt;
            tc.days_per_move = int(*days);
        }
        return tc;
    }
    auto dash = text.find('-');
    if (dash == std::string_view::npos)
        return std::nullopt;
    std::string_view second = text.substr(dash + 1);
    bool fischer = second.ends_with('F');
    if (fischer)
        second.remove_suffix(1);
    auto total = core::to_number<long>(text.substr(0, dash));
    auto extra = core::to_number<long>(second);
    if (!total || !extra || *total > 86400 * 30 || *extra > 86400)
        return std::nullopt;
    tc.main_ms = *total * 1000;
    if (fischer) {
        tc.kind = TimeKind::Fischer;
        tc.increment_ms = *extra * 1000;
    } else if (*extra > 0) {
        tc.kind = TimeKind::Byoyomi;
        tc.byoyomi_ms = *extra * 1000;
    } else {
        tc.kind = TimeKind::SuddenDeath;
    }
    if (tc.main_ms == 0 && tc.byoyomi_ms == 0 && tc.increment_ms == 0)
        return std::nullopt;
    return tc;
}

Millis time_allowed(const TimeControl& tc, Millis remaining) {
    switch (tc.kind) {
    case TimeKind::Correspondence: return Millis(tc.days_per_move) * 86'400'000;
    case TimeKind::Byoyomi: return remaining + tc.byoyomi_ms;
    case TimeKind::Fischer:
        // CSA: the increment is added before the check (shogi-server).
        return remaining + (tc.csa_seconds ? tc.increment_ms : 0);
    case TimeKind::SuddenDeath: return remaining;
    }
    return remaining;
}

Charge charge_move(const TimeControl& tc, Millis remaining, Millis elapsed) {
    Charge c;
    c.spent = tc.csa_seconds ? elapsed / 1000 * 1000 : elapsed;
    if (tc.kind == TimeKind::Correspondence) {
        c.flagged = elapsed >= time_allowed(tc, remaining);
        return c;
    }
    c.flagged = tc.csa_seconds ? c.spent >= time_allowed(tc, remaining) : elapsed > time_allowed(tc, remaining);
    Millis left = remaining - c.spent;
    if (tc.kind == TimeKind::Fischer)
        left += tc.increment_ms;
    c.remaining = std::max<Millis>(0, left);
    return c;
}

}  // namespace hisha::server::service
