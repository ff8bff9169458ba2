// `hisha book build|show`: opening books from game records, and a look into a book.
#pragma once

#include "cli_help.h"

namespace hisha::app {

/// argv after "book". Returns the process exit status (0 ok, 1 failure, 2 usage).
extern const Subcommand BOOK;

}  // namespace hisha::app
