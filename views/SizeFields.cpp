// See SizeFields.h.
#include "views/SizeFields.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cstdint>

#include "codegen/Evaluation.h"
#include "views/QuickSizes.h"

namespace lift::views {

namespace {
QString sizesText(const arith::Env& sizes) {
  QStringList parts;
  for (auto& [name, value] : sizes) parts << QString("%1=%2").arg(QString::fromStdString(name)).arg(value);
  return parts.join(", ");
}
}  // namespace

SizeFields::SizeFields(QWidget* parent) : QWidget(parent), form_(new QFormLayout) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  form_->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form_);
  auto* buttons = new QHBoxLayout;
  quickButton_ = new QPushButton("Quick sizes (CPU)", this);
  quickButton_->setObjectName("quickSizes");
  declaredButton_ = new QPushButton("Program's sizes (GPU)", this);
  declaredButton_->setObjectName("declaredSizes");
  buttons->addWidget(quickButton_);
  buttons->addWidget(declaredButton_);
  buttons->addStretch();
  layout->addLayout(buttons);
  quickButton_->setEnabled(false);
  declaredButton_->setEnabled(false);
  connect(quickButton_, &QPushButton::clicked, this, &SizeFields::useQuickSizes);
  connect(declaredButton_, &QPushButton::clicked, this, &SizeFields::useDeclaredSizes);
}

void SizeFields::useQuickSizes() {
  setTexts(sizeTexts(quick_));
  emit edited();
}

void SizeFields::useDeclaredSizes() {
  setTexts(sizeTexts(declared_));
  emit edited();
}

QMap<QString, QString> sizeTexts(const arith::Env& sizes) {
  QMap<QString, QString> texts;
  for (auto& [name, value] : sizes) texts[QString::fromStdString(name)] = QString::number(value);
  return texts;
}

QMap<QString, QString> SizeFields::texts() const {
  QMap<QString, QString> m;
  for (auto it = fields_.begin(); it != fields_.end(); ++it) m[it.key()] = it.value()->text();
  return m;
}

void SizeFields::setTexts(const QMap<QString, QString>& sizes) {
  for (auto it = sizes.begin(); it != sizes.end(); ++it)
    if (fields_.contains(it.key())) fields_[it.key()]->setText(it.value());
}

void SizeFields::setProgram(const std::shared_ptr<const rewrite::TypedProgram>& p) {
  QStringList names;
  if (p)
    for (auto& s : p->program.sizes) names << QString::fromStdString(s.name);
  if (names == QStringList(fields_.keys()) && !names.isEmpty()) return;  // keep what the user typed
  QMap<QString, QString> old = texts();
  while (form_->rowCount() > 0) form_->removeRow(0);
  fields_.clear();
  quick_.clear();
  declared_.clear();
  quickButton_->setEnabled(p != nullptr);
  declaredButton_->setEnabled(p != nullptr);
  if (!p) return;
  try {
    declared_ = codegen::runSizes(p->program);
    quick_ = views::quickSizes(p->program);
  } catch (const LiftError&) {  // no valid sizes: the fields stay empty, Run explains
  }
  quickButton_->setToolTip("Sizes at which a run on the CPU device takes seconds: " + sizesText(quick_));
  declaredButton_->setToolTip("The sizes the program declares, for a GPU: " + sizesText(declared_));
  const arith::Env& defaults = quick_;
  for (auto& s : p->program.sizes) {
    QString name = QString::fromStdString(s.name);
    auto* field = new QLineEdit(this);
    field->setObjectName("size_" + name);
    auto it = defaults.find(s.name);
    field->setText(old.value(name, it != defaults.end() ? QString::number(it->second) : QString()));
    field->setToolTip("Value of the size variable " + name);
    connect(field, &QLineEdit::textEdited, this, &SizeFields::edited);
    form_->addRow(name + " =", field);
    fields_[name] = field;
  }
}

bool SizeFields::values(arith::Env& out, QString* error) const {
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    bool ok = false;
    qlonglong v = it.value()->text().trimmed().toLongLong(&ok);
    if (!ok || v < 1) {
      if (error)
        *error = QString("Size %1 must be a positive integer, not '%2'.").arg(it.key(), it.value()->text());
      return false;
    }
    if (v > INT32_MAX) {  // as `liftc run`: sizes and generated indices are 32-bit
      if (error) *error = QString("Size %1 must be at most %2, not %3.").arg(it.key()).arg(INT32_MAX).arg(v);
      return false;
    }
    out[it.key().toStdString()] = v;
  }
  return true;
}

}  // namespace lift::views
