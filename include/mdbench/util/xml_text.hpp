// XML text shared by the SVG charts and the JUnit report: strict UTF-8 sequence lengths and escaping.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mdbench {

// Length in bytes of the valid UTF-8 sequence at text[at] (0: invalid, or cut short). Overlong forms,
// surrogates, code points past U+10FFFF and U+FFFE/U+FFFF are invalid, as they are not XML characters.
std::size_t utf8SequenceLength(std::string_view text, std::size_t at = 0);

// Text escaped for XML character data and attribute values: & < > " ' as entities, line breaks and tabs
// as character references (attribute values keep them), other control characters and invalid UTF-8 as
// U+FFFD.
std::string xmlEscape(std::string_view text);

}  // namespace mdbench
