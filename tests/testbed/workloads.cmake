# The workload tests on the test bed (scripts/testbed.sh up): mdbench across two nodes on CephFS with two
# active MDS. Included from tests/testbed/CMakeLists.txt. Each fails (never skips) without its test bed; they
# share the one test bed, so they hold its lock and never run side by side with the other test bed tests.
foreach(script tb_workloads tb_split tb_placement tb_stonewall_steady)
  add_test(NAME ${script} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/${script}.sh)
  set_tests_properties(${script} PROPERTIES LABELS testbed RESOURCE_LOCK testbed TIMEOUT 300
                       ENVIRONMENT "MDBENCH=$<TARGET_FILE:mdbench>")
endforeach()
