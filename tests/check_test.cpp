// Placeholder: filled in by the issue 6 work.
#include <gtest/gtest.h>
TEST(Placeholder, Builds) { EXPECT_EQ(1 + 1, 2); }
