# libnfs (Debian's libnfs-dev, pkg-config libnfs), optional: when found, MDBENCH_HAVE_LIBNFS is set and the
# backend library builds the NFS backend (-a LIBNFS; src/backend/libnfs_backend.cpp). A build without it says
# so at -a LIBNFS. MDBENCH_LIBNFS=OFF leaves it out even when installed.
option(MDBENCH_LIBNFS "Build the NFS backend (-a LIBNFS) when libnfs is installed" ON)
set(MDBENCH_HAVE_LIBNFS OFF)
if(MDBENCH_LIBNFS)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(MDBENCH_LIBNFS_PC QUIET IMPORTED_TARGET libnfs)
  endif()
  if(MDBENCH_LIBNFS_PC_FOUND)
    set(MDBENCH_HAVE_LIBNFS ON)
    add_library(mdbench_libnfs INTERFACE)
    target_link_libraries(mdbench_libnfs INTERFACE PkgConfig::MDBENCH_LIBNFS_PC)
    message(STATUS "libnfs ${MDBENCH_LIBNFS_PC_VERSION}: -a LIBNFS built in")
  else()
    message(STATUS "libnfs not found (apt-get install libnfs-dev): -a LIBNFS not built in")
  endif()
endif()
