#include <webnn/webnn.h>

int main() {
  return webnn::availableBackends().empty() ? 1 : 0;
}
