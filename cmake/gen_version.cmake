# Writes version.cpp with the current git commit at every build, touching the file only when the text
# changes (so an unchanged commit rebuilds nothing). Inputs: SRC_DIR, IN_FILE, OUT_FILE, PROJECT_VERSION.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SRC_DIR}
                OUTPUT_VARIABLE MDBENCH_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_rc)
if(NOT git_rc EQUAL 0 OR MDBENCH_GIT_COMMIT STREQUAL "")
  set(MDBENCH_GIT_COMMIT "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
                  WORKING_DIRECTORY ${SRC_DIR} OUTPUT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    string(APPEND MDBENCH_GIT_COMMIT "-dirty")
  endif()
endif()
configure_file(${IN_FILE} ${OUT_FILE}.tmp @ONLY)
file(COPY_FILE ${OUT_FILE}.tmp ${OUT_FILE} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT_FILE}.tmp)
