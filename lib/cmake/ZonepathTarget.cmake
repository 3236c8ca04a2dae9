# Helpers shared by every zonepath target.

# Warnings and sanitizers for project code only (never for dependencies).
function(zonepath_project_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
  if(ZONEPATH_SANITIZE)
    # Line tables (-g1) are all a sanitizer's report needs and compile in
    # ~70 % of the time of -g (README, "The test command's time"); a Debug
    # build keeps full debug information for the debugger.
    target_compile_options(${target} PRIVATE -fsanitize=${ZONEPATH_SANITIZE}
                           -fno-omit-frame-pointer $<IF:$<CONFIG:Debug>,-g,-g1>)
    target_link_options(${target} PRIVATE -fsanitize=${ZONEPATH_SANITIZE})
  endif()
  if(ZONEPATH_FUZZ)
    # Coverage instrumentation for libFuzzer, plus ASan, on project code.
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address
                                             -g)
    target_link_options(${target} PRIVATE -fsanitize=address)
  endif()
endfunction()

# zonepath_library(NAME <module> SOURCES ... DEPS ... [PRIVATE_DEPS ...])
# Builds lib/<module> as zonepath_<module> with alias zonepath::<module>,
# public headers in lib/<module>/include/zonepath/<module>/, and installs it.
function(zonepath_library)
  cmake_parse_arguments(ZL "" "NAME" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  set(target zonepath_${ZL_NAME})
  add_library(${target} ${ZL_SOURCES})
  add_library(zonepath::${ZL_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${ZL_NAME}
                                             POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ZL_DEPS} PRIVATE ${ZL_PRIVATE_DEPS})
  zonepath_project_options(${target})
  install(TARGETS ${target} EXPORT zonepathTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
