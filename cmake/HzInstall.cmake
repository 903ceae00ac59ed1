# cmake --install build --prefix DIR: o hz-mock em DIR/bin e os cenários em
# DIR/share/harness-zero/scenarios, onde o hz-mock instalado os procura
# (mock-server/src/embedded.cpp: ../share/harness-zero/scenarios a partir do
# executável). As etapas e o hz-course são do curso, não se instalam.
install(TARGETS hz-mock RUNTIME DESTINATION bin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/mock-server/scenarios/
        DESTINATION share/harness-zero/scenarios
        USE_SOURCE_PERMISSIONS)
