// The arithmetic of the times a clock stands still (issue 20): a game's adjournments and, in
// correspondence, the vacations of the player to move. Pure functions of epoch milliseconds, so
// the clocks read the same after a restart (the intervals are stored: store/pause_rows.h).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "server/service/clock.h"
#include "server/store/pause_rows.h"

namespace hisha::server::service {

inline constexpr Millis DAY_MS = 86'400'000;

/// A span of time [from, to).
struct Span {
    Millis from = 0, to = 0;
};

/// How much of [from, to) lies in at least one of `spans` (overlapping spans counted once).
Millis covered(Millis from, Millis to, std::vector<Span> spans);

/// The calendar year (UTC) of an epoch time.
int utc_year(Millis t);
/// When a vacation ends: where it was ended early, else its `until`.
Millis vacation_end(const store::VacationRow& v);
/// Whether the vacation holds at `now`.
bool vacation_on(const store::VacationRow& v, Millis now);
/// The days a vacation uses as of `now`: each day (24 h from its start) begun counts, at least one.
int vacation_days(const store::VacationRow& v, Millis now);
/// The days of vacation a player has used in the calendar year (UTC) of `now`: those of the
/// vacations started that year.
int vacation_days_used(const std::vector<store::VacationRow>& vs, Millis now);
/// "2027-01-31" as 00:00 UTC of that day (epoch ms); nullopt when it is not such a date.
std::optional<Millis> parse_utc_date(std::string_view text);

}  // namespace hisha::server::service
