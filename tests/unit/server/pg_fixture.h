// The fixture of the PostgreSQL tests: one throwaway cluster per test program (skipped, saying
// why, when the server programs are not installed), a fresh database per test, and the text
// client steps that the tests with several hisha-server processes share.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "core/text.h"
#include "pg_cluster.h"
#include "server_process.h"
#include "text_session.h"

namespace hisha::server::test {

class Postgres : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cluster_ = std::make_unique<PgCluster>();
        if (!cluster_->start(why_))
            cluster_.reset();
    }
    static void TearDownTestSuite() { cluster_.reset(); }
    void SetUp() override {
        if (!cluster_)
            GTEST_SKIP() << why_;
    }
    /// A fresh database named after the running test.
    std::string fresh_db() {
        std::string name = text::lower(::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::string url = cluster_->create_database(name);
        EXPECT_FALSE(url.empty()) << "createdb " << name;
        return url;
    }

    static inline std::unique_ptr<PgCluster> cluster_;
    static inline std::string why_;
};

/// Two hisha-server processes on the database `url` (a fresh one), each with the CSA registration
/// open: `auto [url, a, b] = TwoServers(fresh_db());`.
struct TwoServers {
    std::string url;
    ServerProcess a, b;

    explicit TwoServers(std::string db) : url(std::move(db)), a(url, open_csa()), b(url, open_csa()) {}
};

}  // namespace hisha::server::test
