# The job scripts and signals on the test bed (included from tests/testbed/CMakeLists.txt): each test submits
# real jobs to the test bed's Slurm (sbatch, or qsub through Debian's Torque wrappers) and fails when the test
# bed is not up. The bounds in the scripts: jobs 120-240 s (tj_wait), the signal times in tb_signals.sh.
set(TJ_TESTBED_ENV "MDBENCH=$<TARGET_FILE:mdbench>")
foreach(group slurm pbs io500)
  add_test(NAME tb_jobs_${group} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tb_jobs.sh ${group})
  set_tests_properties(tb_jobs_${group} PROPERTIES LABELS testbed RESOURCE_LOCK testbed TIMEOUT 400
                       ENVIRONMENT "${TJ_TESTBED_ENV}")
endforeach()
foreach(case term kill)
  add_test(NAME tb_signals_${case} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tb_signals.sh ${case})
  set_tests_properties(tb_signals_${case} PROPERTIES LABELS testbed RESOURCE_LOCK testbed TIMEOUT 300
                       ENVIRONMENT "${TJ_TESTBED_ENV}")
endforeach()
