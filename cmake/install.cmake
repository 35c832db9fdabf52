# What `cmake --install` puts under the prefix:
#   bin/mheta, bin/mheta-microbench      (mheta finds mheta-microbench beside itself)
#   lib/libmheta-interpose.so            (mheta finds it at ../lib from bin/)
#   lib/libmheta_*.a                     the libraries programs link (io, the advisor)
#   include/mheta/                       <mheta/marks.h>, <mheta/hints.h> and the
#                                        libraries' headers ("io/local_array.hpp")
#   lib/cmake/mheta/                     find_package(mheta): mheta::io, mheta::advisor ...
#   lib/pkgconfig/mheta.pc               pkg-config --cflags --libs mheta
include(CMakePackageConfigHelpers)

install(TARGETS mheta mheta-microbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS mheta_interpose LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mheta DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# A library programs link: installed, exported as mheta::<name>, with the
# headers of its folder under include/mheta/<folder>/. Dependencies first.
set(MHETA_EXPORTED_LIBRARIES "")
function(mheta_export_library target name)
  if(NOT TARGET ${target})
    return()
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(${target} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/mheta>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(MHETA_SANITIZE)
    # Instrumented archives need the sanitizers' runtime in the program that
    # links them.
    target_link_options(${target} INTERFACE $<INSTALL_INTERFACE:${MHETA_SANITIZER_LINK_FLAGS}>)
  endif()
  install(TARGETS ${target} EXPORT mhetaTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  get_target_property(folder ${target} SOURCE_DIR)
  cmake_path(GET folder FILENAME area)
  install(DIRECTORY ${folder}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mheta/${area} FILES_MATCHING PATTERN "*.hpp")
  get_target_property(file_name ${target} OUTPUT_NAME)
  if(NOT file_name)
    set(file_name ${target})
  endif()
  # pkg-config wants the dependents first.
  set(MHETA_EXPORTED_LIBRARIES "-l${file_name} ${MHETA_EXPORTED_LIBRARIES}" PARENT_SCOPE)
endfunction()

mheta_export_library(mheta_model model)
mheta_export_library(mheta_search search)
mheta_export_library(mheta_microbench microbench)
mheta_export_library(mheta_io io)
mheta_export_library(mheta_advisor advisor)

set(MHETA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mheta)
install(EXPORT mhetaTargets NAMESPACE mheta:: DESTINATION ${MHETA_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mhetaConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mhetaConfig.cmake INSTALL_DESTINATION ${MHETA_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mhetaConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mhetaConfig.cmake ${PROJECT_BINARY_DIR}/mhetaConfigVersion.cmake
        DESTINATION ${MHETA_CMAKE_DIR})

# Relocatable, as the CMake package: the prefix is found from the .pc file's
# folder, so `cmake --install --prefix` anywhere works.
file(RELATIVE_PATH MHETA_PREFIX_FROM_PC ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${PROJECT_SOURCE_DIR}/cmake/mheta.pc.in ${PROJECT_BINARY_DIR}/mheta.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mheta.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
