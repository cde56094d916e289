// A field per size variable of a program ("M =", "N =", ...), shared by the run and search
// panes: rebuilt when the program's size variables change, keeping what the user typed, and
// prefilled with quick sizes (QuickSizes.h: a run on the CPU device takes seconds); one button
// puts the program's declared sizes (its GPU sizes) in the fields, another the quick ones back.
#pragma once

#include <QMap>
#include <QWidget>
#include <memory>

#include "core/arith/ArithExpr.h"
#include "rewrite/Engine.h"

class QFormLayout;
class QLineEdit;
class QPushButton;

namespace lift::views {

class SizeFields : public QWidget {
  Q_OBJECT
 public:
  explicit SizeFields(QWidget* parent = nullptr);

  // Rebuilds the fields for the size variables of `p` (kept when the names are the same).
  void setProgram(const std::shared_ptr<const rewrite::TypedProgram>& p);
  QMap<QString, QString> texts() const;
  void setTexts(const QMap<QString, QString>& sizes);
  // The sizes as typed; false, with a sentence in `error`, unless every one is a positive integer
  // of at most 32 bits (2^31-1).
  bool values(arith::Env& out, QString* error) const;
  // The program's quick and declared sizes (empty without a program).
  const arith::Env& quickSizes() const { return quick_; }
  const arith::Env& declaredSizes() const { return declared_; }
  // Puts them in the fields (what the two buttons do).
  void useQuickSizes();
  void useDeclaredSizes();

 signals:
  void edited();

 private:
  QFormLayout* form_;
  QMap<QString, QLineEdit*> fields_;
  QPushButton* quickButton_;
  QPushButton* declaredButton_;
  arith::Env quick_, declared_;
};

// Sizes as the texts of the fields ("M" -> "64").
QMap<QString, QString> sizeTexts(const arith::Env& sizes);

}  // namespace lift::views
