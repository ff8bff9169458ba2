# Turns a text file into a C++ source that defines it as one string:
#   cmake -DIN=file -DOUT=file.cpp -DNAMESPACE=ns -DNAME=IDENT -P embed_text.cmake
# defines `extern const char NAME[]` in namespace NAMESPACE (chunks stay under the compilers'
# string-literal limits).
file(READ ${IN} text)
string(LENGTH "${text}" n)
set(out "// Generated from ${IN} by embed_text.cmake: do not edit.\nnamespace ${NAMESPACE} {\nextern const char ${NAME}[];\nconst char ${NAME}[] =\n")
set(pos 0)
if(n EQUAL 0)
  string(APPEND out "\"\"\n")
endif()
while(pos LESS n)
  string(SUBSTRING "${text}" ${pos} 2000 chunk)
  string(REPLACE "\\" "\\\\" chunk "${chunk}")
  string(REPLACE "\"" "\\\"" chunk "${chunk}")
  string(REPLACE "\n" "\\n\"\n\"" chunk "${chunk}")
  string(REPLACE "\t" "\\t" chunk "${chunk}")
  string(APPEND out "\"${chunk}\"\n")
  math(EXPR pos "${pos} + 2000")
endwhile()
string(APPEND out ";\n}  // namespace ${NAMESPACE}\n")
file(WRITE ${OUT} "${out}")
