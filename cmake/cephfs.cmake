# libcephfs (Debian's libcephfs-dev; no pkg-config file), optional: when found, MDBENCH_HAVE_CEPHFS is set
# and the backend library builds the CephFS backend (-a CEPHFS; src/backend/cephfs_backend.cpp). A build
# without it says so at -a CEPHFS. MDBENCH_CEPHFS=OFF leaves it out even when installed.
option(MDBENCH_CEPHFS "Build the CephFS backend (-a CEPHFS) when libcephfs is installed" ON)
set(MDBENCH_HAVE_CEPHFS OFF)
if(MDBENCH_CEPHFS)
  find_path(MDBENCH_CEPHFS_INCLUDE_DIR cephfs/libcephfs.h)
  find_library(MDBENCH_CEPHFS_LIBRARY cephfs)
  if(MDBENCH_CEPHFS_INCLUDE_DIR AND MDBENCH_CEPHFS_LIBRARY)
    set(MDBENCH_HAVE_CEPHFS ON)
    add_library(mdbench_libcephfs INTERFACE)
    target_include_directories(mdbench_libcephfs INTERFACE ${MDBENCH_CEPHFS_INCLUDE_DIR})
    target_link_libraries(mdbench_libcephfs INTERFACE ${MDBENCH_CEPHFS_LIBRARY})
    # libcephfs.h refuses to compile without 64-bit file offsets (struct stat, off_t in its calls).
    target_compile_definitions(mdbench_libcephfs INTERFACE _FILE_OFFSET_BITS=64)
    message(STATUS "libcephfs: ${MDBENCH_CEPHFS_LIBRARY} (-a CEPHFS built in)")
  else()
    message(STATUS "libcephfs not found (apt-get install libcephfs-dev): -a CEPHFS not built in")
  endif()
endif()
