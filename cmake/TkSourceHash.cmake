# Writes OUTPUT, a C header defining TK_BACKEND_SOURCE_HASH: the first 12 hex digits of a SHA-256
# over the backend's sources (cmake -P, with -DROOT=<source dir> -DOUTPUT=<file>
# -DFILES=<;-separated paths relative to ROOT>). tk_backend_version() carries it, and the version
# is part of every disk-cache key, so a backend built from other sources never reuses a binary
# that an older one compiled. The file is rewritten only when the hash changes.
set(digest "")
foreach(file IN LISTS FILES)
  file(SHA256 "${ROOT}/${file}" file_hash)
  string(APPEND digest "${file}:${file_hash}\n")
endforeach()
string(SHA256 hash "${digest}")
string(SUBSTRING "${hash}" 0 12 hash)
file(WRITE "${OUTPUT}.tmp" "#define TK_BACKEND_SOURCE_HASH \"${hash}\"\n")
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)
file(REMOVE "${OUTPUT}.tmp")
