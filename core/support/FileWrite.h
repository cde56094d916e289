// Writing a whole file so that a failure never leaves a partial one: the text goes to a
// temporary file beside the target, every write and the close are checked, the data is synced,
// and only then is the temporary renamed over the target. A full disk, a file-size limit or a
// missing folder is a LiftError that names the file; the previous content stays as it was. A
// target that exists and is not a regular file (a device, a FIFO) is refused: it is never replaced.
#pragma once

#include <string>
#include <string_view>

namespace lift {

void writeFileAtomically(const std::string& path, std::string_view text);

}  // namespace lift
