// The pieces of `webnn ocr` around the models (tools/ocr): DB box finding, minimum-area
// rectangles, crops, CTC decoding, the dictionary, images and the character accuracy.
#include <gtest/gtest.h>
#include <unistd.h>
#include <webnn/webnn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ocr/accuracy.h"
#include "ocr/crop.h"
#include "ocr/ctc.h"
#include "ocr/image.h"
#include "ocr/text_boxes.h"
#include "tools/run_tool.h"

namespace {

using namespace webnn::ocr;

void expectPoint(const Point& p, double x, double y) {
  EXPECT_NEAR(p.x, x, 1e-9) << "x of (" << p.x << ", " << p.y << ")";
  EXPECT_NEAR(p.y, y, 1e-9) << "y of (" << p.x << ", " << p.y << ")";
}

// A width x height image whose pixel (x, y) is (x, y, x + y) (mod 256).
Image gradient(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.at(x, y)[0] = static_cast<uint8_t>(x);
      image.at(x, y)[1] = static_cast<uint8_t>(y);
      image.at(x, y)[2] = static_cast<uint8_t>(x + y);
    }
  }
  return image;
}

TEST(OcrMinimumAreaRectangle, AxisAlignedPointsGiveTheirBoundingBoxClockwiseFromTopLeft) {
  const std::vector<Point> points = {{0, 0}, {10, 4}, {10, 0}, {3, 2}, {0, 4}, {7, 1}};
  const Rectangle r = minimumAreaRectangle(points);
  EXPECT_NEAR(r.width, 10, 1e-9);
  EXPECT_NEAR(r.height, 4, 1e-9);
  expectPoint(r.corners[0], 0, 0);
  expectPoint(r.corners[1], 10, 0);
  expectPoint(r.corners[2], 10, 4);
  expectPoint(r.corners[3], 0, 4);
}

TEST(OcrMinimumAreaRectangle, ARotatedRectangleIsFoundAtItsAngle) {
  // A 45-degree rectangle of sides sqrt(8) and sqrt(32): its bounding box would have 2.5x the
  // area.
  const std::vector<Point> points = {{2, 0}, {6, 4}, {4, 6}, {0, 2}, {3, 3}};
  const Rectangle r = minimumAreaRectangle(points);
  EXPECT_NEAR(r.width * r.height, std::sqrt(8.0) * std::sqrt(32.0), 1e-9);
  EXPECT_NEAR(std::max(r.width, r.height), std::sqrt(32.0), 1e-9);
}

TEST(OcrMinimumAreaRectangle, CollinearPointsGiveARectangleWithoutArea) {
  const Rectangle r = minimumAreaRectangle({{0, 0}, {2, 0}, {5, 0}});
  EXPECT_NEAR(r.width * r.height, 0, 1e-9);
  const Rectangle none = minimumAreaRectangle({});
  EXPECT_EQ(none.width, 0);
  EXPECT_EQ(none.height, 0);
}

// A width x height probability map, 0 outside the given filled rectangles.
struct Map {
  int width, height;
  std::vector<float> values;
  Map(int w, int h) : width(w), height(h), values(static_cast<size_t>(w) * h, 0.0f) {}
  void fill(int x0, int y0, int x1, int y1, float p) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) values[static_cast<size_t>(y) * width + x] = p;
  }
  std::vector<TextBox> boxes(const TextBoxOptions& options = {}) const {
    return findTextBoxes(values.data(), width, height, options);
  }
};

TEST(OcrTextBoxes, EachRegionIsUnclippedByAreaTimesRatioOverPerimeter) {
  Map map(100, 40);
  map.fill(10, 10, 40, 16, 0.9f);  // 30 x 6
  map.fill(60, 25, 80, 29, 0.8f);  // 20 x 4
  const std::vector<TextBox> boxes = map.boxes();
  ASSERT_EQ(boxes.size(), 2u);
  // The larger first; grown by 30 * 6 * 1.5 / (2 * 36) = 3.75 on every side.
  EXPECT_NEAR(boxes[0].box.width, 37.5, 1e-9);
  EXPECT_NEAR(boxes[0].box.height, 13.5, 1e-9);
  expectPoint(boxes[0].box.corners[0], 6.25, 6.25);
  expectPoint(boxes[0].box.corners[2], 43.75, 19.75);
  EXPECT_NEAR(boxes[0].score, 0.9, 1e-6);
  // 20 * 4 * 1.5 / 48 = 2.5.
  EXPECT_NEAR(boxes[1].box.width, 25, 1e-9);
  EXPECT_NEAR(boxes[1].box.height, 9, 1e-9);
  EXPECT_NEAR(boxes[1].score, 0.8, 1e-6);
}

TEST(OcrTextBoxes, DiagonalNeighboursJoinOneRegion) {
  Map map(20, 20);
  map.fill(2, 2, 8, 8, 0.9f);
  map.fill(8, 8, 14, 14, 0.9f);  // touches the first at one corner only
  EXPECT_EQ(map.boxes().size(), 1u);
}

TEST(OcrTextBoxes, FaintThinAndSurplusRegionsAreLeftOut) {
  Map map(100, 40);
  map.fill(10, 10, 40, 16, 0.5f);  // above the pixel threshold, below the box threshold
  map.fill(50, 10, 90, 12, 0.9f);  // 2 pixels high: under minSide
  EXPECT_TRUE(map.boxes().empty());
  map.fill(10, 10, 40, 16, 0.9f);
  map.fill(10, 25, 30, 31, 0.9f);
  TextBoxOptions one;
  one.maxBoxes = 1;
  ASSERT_EQ(map.boxes(one).size(), 1u);
  EXPECT_NEAR(map.boxes(one)[0].box.width, 37.5, 1e-9);  // the largest kept
}

TEST(OcrCrop, AnAxisAlignedQuadIsCutOutPixelForPixel) {
  const Image image = gradient(20, 12);
  const Image crop = cropQuad(image, {Point{2, 3}, Point{12, 3}, Point{12, 8}, Point{2, 8}});
  ASSERT_EQ(crop.width, 10);
  ASSERT_EQ(crop.height, 5);
  for (int y = 0; y < crop.height; ++y) {
    for (int x = 0; x < crop.width; ++x) {
      for (int c = 0; c < 3; ++c) ASSERT_EQ(crop.at(x, y)[c], image.at(2 + x, 3 + y)[c]);
    }
  }
}

TEST(OcrCrop, ATiltedQuadIsMadeUpright) {
  // The quad's top edge runs from (4, 2) to (16, 8): the crop's top row follows it.
  const Image image = gradient(24, 24);
  const Image crop = cropQuad(image, {Point{4, 2}, Point{16, 8}, Point{13, 14}, Point{1, 8}});
  EXPECT_EQ(crop.width, static_cast<int>(std::hypot(12, 6)));
  EXPECT_EQ(crop.height, static_cast<int>(std::hypot(3, 6)));
  EXPECT_EQ(crop.at(0, 0)[0], 4);
  EXPECT_EQ(crop.at(0, 0)[1], 2);
  // Halfway along the top edge: (10, 5).
  const int half = static_cast<int>(std::lround(std::hypot(12, 6) / 2));
  EXPECT_NEAR(crop.at(half, 0)[0], 10, 1);
  EXPECT_NEAR(crop.at(half, 0)[1], 5, 1);
}

TEST(OcrCrop, ATallCropIsVerticalTextTurnedCounterClockwise) {
  const Image image = gradient(20, 30);
  const Image crop = cropQuad(image, {Point{2, 2}, Point{6, 2}, Point{6, 22}, Point{2, 22}});
  ASSERT_EQ(crop.width, 20);
  ASSERT_EQ(crop.height, 4);
  // Turned counter-clockwise: output (x, y) is the upright crop's (3 - y, x), the image's
  // (5 - y, 2 + x).
  EXPECT_EQ(crop.at(0, 0)[0], 2 + 3);
  EXPECT_EQ(crop.at(0, 0)[1], 2);
  EXPECT_EQ(crop.at(19, 3)[0], 2);
  EXPECT_EQ(crop.at(19, 3)[1], 2 + 19);
}

TEST(OcrCrop, ADegenerateQuadrilateralIsRefusedBeforeAnyAllocation) {
  // A thin image: a crossed quadrilateral spans its length both ways (2000 x 2000 pixels).
  const Image image = gradient(2000, 4);
  EXPECT_THROW(cropQuad(image, {Point{0, 0}, Point{1999, 0}, Point{0, 3}, Point{1999, 3}}),
               webnn::Error);
  EXPECT_THROW(cropQuad(image, {Point{0, 0}, Point{1e12, 0}, Point{1e12, 3}, Point{0, 3}}),
               webnn::Error);
  const double nan = std::nan("");
  EXPECT_THROW(cropQuad(image, {Point{nan, 0}, Point{9, 0}, Point{9, 3}, Point{0, 3}}),
               webnn::Error);
  EXPECT_EQ(cropQuad(image, {Point{0, 0}, Point{1999, 0}, Point{1999, 3}, Point{0, 3}}).width,
            1999);
  // Three corners in one place: the transform is degenerate, the crop still samples the image.
  const Image degenerate = cropQuad(image, {Point{5, 1}, Point{5, 1}, Point{5, 1}, Point{9, 2}});
  EXPECT_GE(degenerate.width, 1);
  EXPECT_GE(degenerate.height, 1);
}

TEST(OcrImage, TurnsAndAnIdentityResizeKeepThePixels) {
  const Image image = gradient(7, 5);
  EXPECT_EQ(rotate180(rotate180(image)).rgb, image.rgb);
  const Image turned = rotate90(image);
  EXPECT_EQ(turned.width, 5);
  EXPECT_EQ(turned.height, 7);
  EXPECT_EQ(turned.at(0, 0)[0], 6);  // the input's top-right pixel
  EXPECT_EQ(rotate90(rotate90(rotate90(turned))).rgb, image.rgb);
  EXPECT_EQ(resize(image, 7, 5).rgb, image.rgb);
  const Image half = resize(gradient(8, 8), 4, 4);
  EXPECT_EQ(half.at(1, 2)[0], 3);  // pixel centres aligned: x 1 samples 2.5, rounded to 3
}

TEST(OcrImage, DrawnEdgesStayInsideTheImage) {
  Image image = gradient(10, 10);
  drawPolygon(image, {Point{-5, -5}, Point{20, -5}, Point{20, 3}, Point{-5, 3}}, {1, 2, 3}, 3);
  EXPECT_EQ(image.at(5, 3)[0], 1);  // the bottom edge, inside
  EXPECT_EQ(image.at(5, 8)[0], 5);  // untouched
}

#ifdef WEBNN_HAVE_STB
std::string temporaryPath(const std::string& name) {
  return ::testing::TempDir() + "/ocr_test_" + std::to_string(::getpid()) + "_" + name;
}

TEST(OcrImage, APngWrittenIsReadBack) {
  const Image image = gradient(9, 4);
  const std::string path = temporaryPath("round.png");
  writePng(path, image);
  const Image back = readImage(path);
  EXPECT_EQ(back.width, 9);
  EXPECT_EQ(back.height, 4);
  EXPECT_EQ(back.rgb, image.rgb);
  std::remove(path.c_str());
}

TEST(OcrImage, AFileThatIsNoImageIsADataErrorNamingIt) {
  const std::string path = temporaryPath("not_an_image.png");
  std::ofstream(path) << "these are not the bytes of a PNG";
  try {
    readImage(path);
    FAIL() << "read";
  } catch (const webnn::Error& e) {
    EXPECT_EQ(e.kind(), webnn::Error::Kind::DataError);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

// `webnn ocr`'s refusals come before any model is built and name what is wrong.
TEST(OcrCommand, AWrongTruthImageOrModelFolderIsNamed) {
  if (!std::getenv("WEBNN_TOOL")) GTEST_SKIP() << "WEBNN_TOOL is not set (run through ctest)";
  const std::string image = temporaryPath("command.png");
  writePng(image, gradient(8, 8));
  const std::string empty = ::testing::TempDir();
  auto out = webnn::testing::runTool("ocr '" + image + "' --models '" + empty + "'");
  if (out.text.find("this build lacks") != std::string::npos) GTEST_SKIP() << out.text;
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.text.find("lacks ch_PP-OCRv4_det_infer.onnx, ch_ppocr_mobile_v2.0_cls_infer.onnx, "
                          "ch_PP-OCRv4_rec_infer.onnx, ppocr_keys_v1.txt"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("fetch-models.sh"), std::string::npos) << out.text;

  out = webnn::testing::runTool("ocr '" + image + "' --models '" + empty + "' --truth '" + empty +
                                "/no-such-truth.txt'");
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.text.find("no-such-truth.txt: cannot read the text"), std::string::npos)
      << out.text;

  // --output in a folder that cannot be made (under a file) fails before the models run.
  const std::string file = temporaryPath("a-file");
  std::ofstream(file) << "not a folder";
  out = webnn::testing::runTool("ocr '" + image + "' --models '" + empty + "' --output '" + file +
                                "/boxes.png'");
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.text.find("--output: cannot make the folder"), std::string::npos) << out.text;
  std::remove(file.c_str());

  out = webnn::testing::runTool("ocr '" + empty + "/no-such-image.png'");
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.text.find("no-such-image.png"), std::string::npos) << out.text;
  EXPECT_FALSE(std::filesystem::exists(empty + "/no-such-image.boxes.png"));
  std::remove(image.c_str());
}
#endif

// steps x classes probabilities, each step's `best` at 0.9 (0.1 / (classes - 1) elsewhere).
std::vector<float> steps(const std::vector<int>& best, int classes) {
  std::vector<float> p(best.size() * classes, 0.1f / (classes - 1));
  for (size_t t = 0; t < best.size(); ++t) p[t * classes + best[t]] = 0.9f;
  return p;
}

TEST(OcrCtc, RepeatsCollapseBlanksSeparateAndTheLastClassIsASpace) {
  const std::vector<std::string> dictionary = {"a", "b", " "};  // as readDictionary gives
  const std::vector<float> p = steps({1, 1, 0, 1, 2, 2, 3, 0, 0, 2}, 4);
  const Recognized r = decodeCtc(p.data(), 10, 4, dictionary);
  EXPECT_EQ(r.text, "aab b");
  EXPECT_NEAR(r.confidence, 0.9, 1e-6);
  const std::vector<float> blank = steps({0, 0}, 4);
  EXPECT_EQ(decodeCtc(blank.data(), 2, 4, dictionary).text, "");
  EXPECT_EQ(decodeCtc(blank.data(), 2, 4, dictionary).confidence, 0);
}

TEST(OcrCtc, AClassBeyondTheDictionaryIsLeftOut) {
  const std::vector<float> p = steps({1, 5, 2}, 6);
  EXPECT_EQ(decodeCtc(p.data(), 3, 6, {"x", "y", " "}).text, "xy");
}

TEST(OcrDictionary, LinesWithoutCarriageReturnsAndASpaceAppended) {
  const std::string path = ::testing::TempDir() + "/ocr_test_dictionary.txt";
  std::ofstream(path) << "a\r\n\xE4\xB8\xAD\nb\n";
  EXPECT_EQ(readDictionary(path), (std::vector<std::string>{"a", "\xE4\xB8\xAD", "b", " "}));
  std::ofstream(path, std::ios::trunc).flush();
  EXPECT_THROW(readDictionary(path), webnn::Error);
  std::remove(path.c_str());
  try {
    readDictionary(path);
    FAIL() << "read";
  } catch (const webnn::Error& e) {
    EXPECT_EQ(e.kind(), webnn::Error::Kind::DataError);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
  }
}

TEST(OcrAccuracy, EditDistanceOverCodePointsWithSpacesIgnored) {
  EXPECT_EQ(characterAccuracy({"HelloWebNN"}, {"Hello WebNN"}).edits, 0u);
  EXPECT_DOUBLE_EQ(characterAccuracy({"Hello", "WebNN"}, {"Hello WebNN"}).accuracy(), 1.0);
  // One substitution in ten characters.
  const CharacterAccuracy one = characterAccuracy({"HelloWebMN"}, {"Hello WebNN"});
  EXPECT_EQ(one.edits, 1u);
  EXPECT_EQ(one.characters, 10u);
  EXPECT_DOUBLE_EQ(one.accuracy(), 0.9);
  // A missing line: all its characters are edits.
  EXPECT_DOUBLE_EQ(characterAccuracy({"abcd"}, {"abcd", "efgh"}).accuracy(), 0.5);
  // Reading more than is there counts against the longer side.
  EXPECT_DOUBLE_EQ(characterAccuracy({"abcdefgh"}, {"abcd"}).accuracy(), 0.5);
  // A three-byte character is one edit.
  EXPECT_EQ(characterAccuracy({"\xE4\xB8\xAD"}, {"\xE6\x96\x87"}).edits, 1u);
  EXPECT_DOUBLE_EQ(characterAccuracy({}, {}).accuracy(), 1.0);
}

TEST(OcrAccuracy, InvalidUtf8BytesAreOneCodePointEach) {
  EXPECT_EQ(codePoints("a\xE4\xB8\xAD"
                       "b"),
            (std::vector<std::string>{"a", "\xE4\xB8\xAD", "b"}));
  EXPECT_EQ(codePoints("\xE4\xB8"), (std::vector<std::string>{"\xE4", "\xB8"}));
  EXPECT_EQ(codePoints("\xFF"
                       "a"),
            (std::vector<std::string>{"\xFF", "a"}));
}

}  // namespace
